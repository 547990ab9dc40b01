/// When cached rates go stale (SPEC §4.10, §4.14): `auto` follows the ECB's calendar for an ECB feed, else the
/// TTL; `follow` revalidates when the upstream's own `max-age` runs out (a replica of a Larder primary).
public enum RatesSchedule: String, Sendable, CaseIterable {
    case auto, ecb, ttl, follow
}
