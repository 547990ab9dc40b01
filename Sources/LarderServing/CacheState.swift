public import Foundation
public import LarderFreshness
public import LarderHTTP
import LarderFormats

/// How fresh a cached answer is at one instant, and the SPEC §3 headers that say so.
public struct CacheState: Sendable, Equatable {
    public let fetchedAt: Date
    /// When the copy stops (or stopped) being fresh: a TTL after `fetchedAt`, or a publication instant.
    public let expiresAt: Date
    public let now: Date
    /// Why a stale copy is stale (`upstream-unreachable`, …), shown in `Cache-Status`.
    public let staleDetail: String?
    /// Whole seconds an expired copy goes at most without a revalidation attempt (`Freshness`); 0
    /// leaves out RFC 5861's `stale-while-revalidate` and `stale-if-error`.
    public let revalidationSeconds: Int
    /// Set when the server may repeat answers of this state from its memo (`MemoPermit`).
    public var memo: MemoPermit?

    /// How many revalidation intervals a downstream may serve its copy while Larder answers errors
    /// or cannot be reached (`stale-if-error`): Larder itself keeps serving its copy through any
    /// number of failed refreshes (SPEC §4.7); a downstream gets a bounded share of that, a day on the
    /// default one-hour TTL.
    public static let staleIfErrorIntervals = 24

    public init(fetchedAt: Date, expiresAt: Date, now: Date, staleDetail: String?, revalidationSeconds: Int = 0) {
        self.fetchedAt = fetchedAt
        self.expiresAt = expiresAt
        self.now = now
        self.staleDetail = staleDetail
        self.revalidationSeconds = max(0, revalidationSeconds)
    }

    /// The state of an item at the instant `freshness` was read; `fallback` stands in for a `fetchedAt`
    /// never recorded (such a copy was never confirmed by the upstream, so it counts as expired).
    public init(_ freshness: Freshness, fallback: Date) {
        let fetchedAt = freshness.fetchedAt ?? fallback
        let expiresAt = freshness.expiresAt ?? fallback
        self.init(
            fetchedAt: fetchedAt, expiresAt: expiresAt, now: freshness.now,
            staleDetail: freshness.now >= expiresAt ? freshness.lastErrorKind ?? "revalidating" : nil,
            revalidationSeconds: freshness.revalidationSeconds)
    }

    /// Whole seconds of freshness left: negative once expired (how long ago, rounded away from zero).
    public var ttlLeft: Int {
        // Rounded down either way: 2.5 s left is 2, 2.5 s past is -3 (away from zero).
        WholeSeconds.of(expiresAt.timeIntervalSince(now), .down)
    }

    public var isStale: Bool { ttlLeft <= 0 }

    /// Whole seconds since the upstream last confirmed the copy.
    public var age: Int { max(0, WholeSeconds.of(now.timeIntervalSince(fetchedAt))) }

    /// The second this state is current for: prepared answers are rebuilt when it changes.
    public var second: Int { WholeSeconds.since1970(now) }

    /// `public, max-age=N` (the seconds of freshness left), and RFC 5861's directives sized from the
    /// revalidation interval R: `stale-while-revalidate=R` (Larder itself tries to revalidate an
    /// expired copy at least that often, so a downstream serving its copy while it revalidates is
    /// never staler than Larder's own cycle) and `stale-if-error=24R`.
    public var cacheControl: String {
        let maxAge = "public, max-age=\(max(0, ttlLeft))"
        guard revalidationSeconds > 0 else { return maxAge }
        return maxAge + ", stale-while-revalidate=\(revalidationSeconds), stale-if-error=\(revalidationSeconds * Self.staleIfErrorIntervals)"
    }

    /// `Cache-Control`, `Expires`, `Age` and `Cache-Status`; `immutable` for a day that can never change.
    public func headers(immutable: Bool = false) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if immutable {
            headers.add("Cache-Control", "public, max-age=31536000, immutable")
        } else {
            headers.add("Cache-Control", cacheControl)
            // The expiry instant itself (max-age counts down to it), for HTTP/1.0 caches and people;
            // once past, it says so (RFC 9111 §5.3).
            headers.add("Expires", HTTPDate.format(secondsSince1970: WholeSeconds.since1970(expiresAt)))
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
