public import Foundation
import LarderFormats

/// An item's upstream timestamps, where known (SPEC §4).
public struct Timestamps: Sendable, Equatable {
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// These timestamps as rules may use them at `now` (SPEC §4.11): one after `now` is kept as data
    /// but decides nothing, so it counts as unknown. A year-9999 `updated_at` cannot then refuse every
    /// later copy as a regression, nor make the cached copy look newer than any the upstream sends.
    public func known(asOf now: Date) -> Timestamps {
        Timestamps(createdAt: createdAt.flatMap { $0 <= now ? $0 : nil }, updatedAt: updatedAt.flatMap { $0 <= now ? $0 : nil })
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
        // Rounded down either way: 2.5 s left is 2, 2.5 s past is -3 (away from zero).
        WholeSeconds.of(ttl.timeInterval - now.timeIntervalSince(fetchedAt), .down)
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
