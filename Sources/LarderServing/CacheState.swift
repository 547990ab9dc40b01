import Foundation
import LarderFreshness
import LarderHTTP

/// How fresh a cached answer is at one instant, and the SPEC §3 headers that say so.
public struct CacheState: Sendable, Equatable {
    public let fetchedAt: Date
    public let ttl: Duration
    public let now: Date
    /// Why a stale copy is stale (`upstream-unreachable`, …), shown in `Cache-Status`.
    public let staleDetail: String?

    public init(fetchedAt: Date, ttl: Duration, now: Date, staleDetail: String?) {
        self.fetchedAt = fetchedAt
        self.ttl = ttl
        self.now = now
        self.staleDetail = staleDetail
    }

    /// The state of an item at the instant `freshness` was read; `fallback` stands in for a `fetchedAt` never recorded.
    public init(_ freshness: Freshness, fallback: Date) {
        let fetchedAt = freshness.fetchedAt ?? fallback
        let stale = FreshnessRules.isExpired(fetchedAt: fetchedAt, ttl: freshness.ttl, now: freshness.now)
        self.init(
            fetchedAt: fetchedAt, ttl: freshness.ttl, now: freshness.now,
            staleDetail: stale ? freshness.lastErrorKind ?? "revalidating" : nil)
    }

    /// Seconds of TTL left, negative once expired.
    public var ttlLeft: Int { FreshnessRules.secondsLeft(fetchedAt: fetchedAt, ttl: ttl, now: now) }

    public var isStale: Bool { ttlLeft <= 0 }

    /// Whole seconds since the upstream last confirmed the copy.
    public var age: Int { max(0, Int(now.timeIntervalSince(fetchedAt).rounded(.down))) }

    /// The second this state is current for: prepared answers are rebuilt when it changes.
    public var second: Int { Int(now.timeIntervalSince1970.rounded(.down)) }

    /// `Cache-Control`, `Age` and `Cache-Status`; `immutable` for a day that can never change.
    public func headers(immutable: Bool = false) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if immutable {
            headers.add("Cache-Control", "public, max-age=31536000, immutable")
        } else {
            headers.add("Cache-Control", "public, max-age=\(max(0, ttlLeft))")
        }
        headers.add("Age", String(age))
        var status = "Larder; hit; ttl=\(immutable ? 31_536_000 : ttlLeft)"
        if !immutable, isStale {
            status += "; detail=\(staleDetail ?? "revalidating")"
        }
        headers.add("Cache-Status", status)
        return headers
    }
}
