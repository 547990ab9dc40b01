public import Foundation

/// An item's upstream timestamps, where known (SPEC §4).
public struct Timestamps: Sendable, Equatable {
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The rules of SPEC §4.1–4.3, as pure functions of instants.
public enum FreshnessRules {
    /// §4.1: expired when `now - fetchedAt >= ttl`; an item never fetched is expired.
    public static func isExpired(fetchedAt: Date?, ttl: Duration, now: Date) -> Bool {
        guard let fetchedAt else { return true }
        return now.timeIntervalSince(fetchedAt) >= ttl.timeInterval
    }

    /// Whole seconds of the TTL left: negative once expired (how long ago it expired, rounded away from zero).
    public static func secondsLeft(fetchedAt: Date, ttl: Duration, now: Date) -> Int {
        let left = ttl.timeInterval - now.timeIntervalSince(fetchedAt)
        return left > 0 ? Int(left.rounded(.down)) : -Int((-left).rounded(.up))
    }

    /// §4.2: the cached copy is stale against the upstream's when any of the four timestamps is
    /// missing, or either cached timestamp is older than the upstream's.
    public static func isStale(cached: Timestamps, upstream: Timestamps) -> Bool {
        guard let cachedCreated = cached.createdAt, let cachedUpdated = cached.updatedAt,
              let upstreamCreated = upstream.createdAt, let upstreamUpdated = upstream.updatedAt else { return true }
        return cachedUpdated < upstreamUpdated || cachedCreated < upstreamCreated
    }

    /// §4.3: the upstream's copy is older than the cached one by a timestamp both sides know.
    public static func isRegression(cached: Timestamps, upstream: Timestamps) -> Bool {
        if let cached = cached.updatedAt, let upstream = upstream.updatedAt, upstream < cached { return true }
        if let cached = cached.createdAt, let upstream = upstream.createdAt, upstream < cached { return true }
        return false
    }
}
