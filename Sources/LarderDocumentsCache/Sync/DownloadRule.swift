import Foundation
import LarderFreshness
import LarderStore

/// Whether a listed document must be fetched (SPEC §5): missing, its size or hash changed, or stale
/// by the timestamp rule — never to replace newer bytes with older ones.
enum DownloadRule {
    enum Decision: Equatable {
        case skip
        /// The index's timestamps are older than the mirrored copy's: never regress.
        case regression
        /// `conditional`: send the stored validators (the bytes may well be the same).
        case download(conditional: Bool)
    }

    /// A timestamp after `now`, on either side, decides nothing (SPEC §4.11).
    static func decide(entry: DocumentEntryRecord, file: DocumentFileRecord?, indexChanged: Bool, now: Date) -> Decision {
        guard let file else { return .download(conditional: false) }
        if let sha256 = entry.sha256, sha256 != file.sha256 { return .download(conditional: false) }
        if let size = entry.size, size != file.size { return .download(conditional: false) }
        let cached = Timestamps(createdAt: file.createdAt, updatedAt: file.updatedAt).known(asOf: now)
        let upstream = Timestamps(createdAt: entry.createdAt, updatedAt: entry.updatedAt).known(asOf: now)
        // An unchanged index (304) says nothing new, so a missing timestamp is no reason to fetch again;
        // but a held entry newer than the mirrored copy (its last download failed) is retried.
        guard indexChanged else { return isNewer(upstream, than: cached) ? .download(conditional: true) : .skip }
        if FreshnessRules.isRegression(cached: cached, upstream: upstream) { return .regression }
        return FreshnessRules.isStale(cached: cached, upstream: upstream) ? .download(conditional: true) : .skip
    }

    /// After a change of upstream URL (SPEC §4.9) a mirrored file is the old upstream's: it stays
    /// only when the new index vouches for the same bytes (equal `sha256`); timestamps and validators
    /// of another upstream say nothing, so the download is unconditional.
    static func decideAfterUpstreamChange(entry: DocumentEntryRecord, file: DocumentFileRecord?) -> Decision {
        guard let file, let sha256 = entry.sha256, sha256 == file.sha256 else { return .download(conditional: false) }
        if let size = entry.size, size != file.size { return .download(conditional: false) }
        return .skip
    }

    /// Both sides carry the timestamp and the upstream's is later.
    private static func isNewer(_ upstream: Timestamps, than cached: Timestamps) -> Bool {
        func later(_ a: Date?, _ b: Date?) -> Bool { if let a, let b { a > b } else { false } }
        return later(upstream.updatedAt, cached.updatedAt) || later(upstream.createdAt, cached.createdAt)
    }
}
