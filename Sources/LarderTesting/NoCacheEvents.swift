public import LarderServing

/// Events nobody listens to (tests and tools that build a cache without metrics).
public struct NoCacheEvents: CacheEvents {
    public init() {}
    public func hit(_ resource: CacheResource, stale: Bool) {}
    public func miss(_ resource: CacheResource) {}
    public func upstreamFetch(_ resource: CacheResource, outcome: FetchOutcome) {}
    public func refreshed(_ resource: CacheResource, duration: Duration) {}
    public func regressionRefused(_ resource: CacheResource) {}
    public func publicationMissed(_ resource: CacheResource) {}
}
