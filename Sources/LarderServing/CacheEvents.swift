public import LarderFreshness
public import LarderHTTP

/// Told what the caches do (metrics). Calls come from server threads and refresh tasks, so they must be cheap.
public protocol CacheEvents: Sendable {
    /// A request answered from the cache; `stale` once the TTL ran out.
    func hit(_ resource: CacheResource, stale: Bool)
    /// A request that found nothing cached and had to wait for (or failed without) the upstream.
    func miss(_ resource: CacheResource)
    /// One upstream fetch and how it ended.
    func upstreamFetch(_ resource: CacheResource, outcome: FetchOutcome)
    /// One fetch from one of the resource's upstreams (`upstream`: its label, without credentials).
    func upstreamFetch(_ resource: CacheResource, upstream: String, outcome: FetchOutcome)
    /// One refresh, from start to commit or failure.
    func refreshed(_ resource: CacheResource, duration: Duration)
    /// Upstream data older than the cached data, refused (SPEC §4.3).
    func regressionRefused(_ resource: CacheResource)
    /// An expected publication that had not come by its cutoff (SPEC §4.10).
    func publicationMissed(_ resource: CacheResource)
    /// One rates cross-check and how many currencies disagreed in it (SPEC §4.12).
    func ratesCrossChecked(_ outcome: CrossCheckOutcome, disagreements: Int)
    /// What counts a fresh hit of `resource` as `hit(_:stale:)` does, found once: the server's memo
    /// counts its repeats through it.
    func freshHit(_ resource: CacheResource) -> any AnswerMemoHit
}

extension CacheEvents {
    /// By default, `hit(resource, stale: false)` each time.
    public func freshHit(_ resource: CacheResource) -> any AnswerMemoHit {
        CacheHit(events: self, resource: resource)
    }
}

extension CacheEvents {
    /// Observers that do not count cross-checks ignore them.
    public func ratesCrossChecked(_ outcome: CrossCheckOutcome, disagreements: Int) {}
}

extension CacheEvents {
    /// Observers that do not tell upstreams apart count the fetch for the resource.
    public func upstreamFetch(_ resource: CacheResource, upstream: String, outcome: FetchOutcome) {
        upstreamFetch(resource, outcome: outcome)
    }
}

extension RefreshError {
    /// The `upstreamFetch` outcome of a failed refresh.
    public var fetchOutcome: FetchOutcome { kind == .invalidPayload ? .refused : .error }
}
