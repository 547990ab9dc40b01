/// When cached rates go stale (SPEC §4.10): `auto` follows the ECB's calendar for an ECB feed, else the TTL.
public enum RatesSchedule: String, Sendable, CaseIterable {
    case auto, ecb, ttl
}
