public import LarderFreshness

/// Told what the caches do (metrics). Calls come from server threads and refresh tasks, so they must be cheap.
public protocol CacheEvents: Sendable {
    /// A request answered from the cache; `stale` once the TTL ran out.
    func hit(_ resource: String, stale: Bool)
    /// A request that found nothing cached and had to wait for (or failed without) the upstream.
    func miss(_ resource: String)
    /// One upstream fetch: `200`, `304`, `error` or `refused` (a payload Larder would not take).
    func upstreamFetch(_ resource: String, outcome: String)
    /// One refresh, from start to commit or failure.
    func refreshed(_ resource: String, duration: Duration)
    /// Upstream data older than the cached data, refused (SPEC §4.3).
    func regressionRefused(_ resource: String)
    /// An expected publication that had not come by its cutoff (SPEC §4.10).
    func publicationMissed(_ resource: String)
}

/// Events nobody listens to (tests and tools that build a cache without metrics).
public struct NoCacheEvents: CacheEvents {
    public init() {}
    public func hit(_ resource: String, stale: Bool) {}
    public func miss(_ resource: String) {}
    public func upstreamFetch(_ resource: String, outcome: String) {}
    public func refreshed(_ resource: String, duration: Duration) {}
    public func regressionRefused(_ resource: String) {}
    public func publicationMissed(_ resource: String) {}
}

extension RefreshError {
    /// The `upstreamFetch` outcome of a failed refresh.
    public var fetchOutcome: String { kind == .invalidPayload ? "refused" : "error" }
}
