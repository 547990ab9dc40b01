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

    static func decide(entry: DocumentEntryRecord, file: DocumentFileRecord?, indexChanged: Bool) -> Decision {
        guard let file else { return .download(conditional: false) }
        if let sha256 = entry.sha256, sha256 != file.sha256 { return .download(conditional: false) }
        if let size = entry.size, size != file.size { return .download(conditional: false) }
        // An unchanged index (304) says nothing new about timestamps.
        guard indexChanged else { return .skip }
        let cached = Timestamps(createdAt: file.createdAt, updatedAt: file.updatedAt)
        let upstream = Timestamps(createdAt: entry.createdAt, updatedAt: entry.updatedAt)
        if FreshnessRules.isRegression(cached: cached, upstream: upstream) { return .regression }
        return FreshnessRules.isStale(cached: cached, upstream: upstream) ? .download(conditional: true) : .skip
    }
}
