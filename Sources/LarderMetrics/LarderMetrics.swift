import CoreMetrics
public import LarderHTTP
public import LarderServing
public import Prometheus
import Synchronization

/// Larder's Prometheus metrics (SPEC §3 `/metrics`): the events recorded through swift-metrics' types
/// into one registry, every family named and described in `MetricFamily`.
///
/// Not bootstrapped as the process-wide `MetricsSystem`: every metric is made for this registry, so tests
/// can run several Larders in one process, each with its own numbers.
public final class LarderMetrics: RequestObserver, CacheEvents {
    public let registry = PrometheusCollectorRegistry()
    let make: MetricMaker

    /// Per route and status: the request counter and the route's latency histogram.
    struct RouteMetrics: Sendable {
        let route: String
        let status: Int
        let requests: CoreMetrics.Counter
        /// The route's, whatever the status (the same object in each of its entries).
        let latency: LatencyHistogram
    }

    /// Found with one lock on the hot path, by a linear search: a few dozen pairs, and the route
    /// text is the router's own string, so comparing it is cheaper than hashing it.
    let routes = Mutex<[RouteMetrics]>([])

    /// The hit counters of the resources Larder has, made up front so a hit takes no lock (and,
    /// searched in a three-element list, no hashing).
    private let hitCounters: [(resource: CacheResource, fresh: CoreMetrics.Counter, stale: CoreMetrics.Counter)]

    /// One counter per refusal reason, made up front (exported at 0) so a refusal takes no lock.
    private let refusalCounters: [(reason: RefusalReason, counter: CoreMetrics.Counter)]

    /// Made up front (exported at 0), so the failure path takes no lock.
    private let allocationFailures: CoreMetrics.Counter

    private struct CounterKey: Hashable {
        let family: MetricFamily
        let labels: [String]
    }

    private let counters = Mutex<[CounterKey: CoreMetrics.Counter]>([:])

    /// Reads the server's count of the answers its memo gave (`larder_http_memo_answers_total`), a total
    /// the server keeps in C; nil until `countMemoAnswers` (the family is then left out).
    let memoAnswers = Mutex<(@Sendable () -> Int)?>(nil)

    /// Where `/metrics` reads `larder_http_memo_answers_total` from.
    public func countMemoAnswers(_ read: @escaping @Sendable () -> Int) {
        memoAnswers.withLock { $0 = read }
    }

    /// `resources` are those configured (`document` with `documents`): their counters are exported at 0
    /// from the first scrape, as `increase()` cannot see a counter's first step from a series that did
    /// not exist. `version` and `libmicrohttpd` label `larder_build_info`.
    public init(resources: [CacheResource], version: String, libmicrohttpd: String) {
        let make = MetricMaker(registry: registry, factory: PrometheusMetricsFactory(registry: registry))
        self.make = make
        refusalCounters = RefusalReason.allCases.map { ($0, make.counter(.requestsRefused, [("reason", $0.rawValue)])) }
        allocationFailures = make.counter(.responseAllocationFailures, [])
        hitCounters = resources.map { resource in
            let labels = [("resource", resource.rawValue)]
            return (resource, make.counter(.cacheHits, labels), make.counter(.cacheStaleHits, labels))
        }
        for resource in resources {
            _ = counter(.cacheMisses, [("resource", resource.rawValue)])
            _ = counter(.upstreamRegressionsRefused, [("resource", resource.rawValue)])
            for outcome in FetchOutcome.allCases {
                _ = counter(.upstreamFetches, [("resource", resource.rawValue), ("outcome", outcome.rawValue)])
            }
        }
        // Only the rates follow a publication calendar.
        if resources.contains(.rates) {
            _ = counter(.publicationsMissed, [("resource", CacheResource.rates.rawValue)])
            for outcome in CrossCheckOutcome.allCases {
                _ = counter(.ratesCrossChecks, [("outcome", outcome.rawValue)])
            }
            _ = counter(.ratesCrossCheckDisagreements, [])
        }
        set(.buildInfo, 1, labels: [("version", version), ("libmicrohttpd", libmicrohttpd)])
    }

    // MARK: - Requests

    public func requestCompleted(route: String, status: Int, nanoseconds: Int64) {
        let metrics = routeMetrics(route: route, status: status)
        metrics.requests.increment()
        metrics.latency.record(nanoseconds: nanoseconds)
    }

    public func recorder(route: String, status: Int) -> (any RouteRecorder)? {
        RouteCounter(metrics: routeMetrics(route: route, status: status))
    }

    /// One route's and status's counter and histogram, as `requestCompleted` counts into them.
    private final class RouteCounter: RouteRecorder {
        let metrics: RouteMetrics

        init(metrics: RouteMetrics) {
            self.metrics = metrics
        }

        func record(nanoseconds: Int64) {
            metrics.requests.increment()
            metrics.latency.record(nanoseconds: nanoseconds)
        }
    }

    private func routeMetrics(route: String, status: Int) -> RouteMetrics {
        routes.withLock { routes in
            if let found = routes.first(where: { $0.status == status && $0.route == route }) { return found }
            let made = RouteMetrics(
                route: route, status: status,
                requests: make.counter(.httpRequests, [("route", route), ("status", String(status))]),
                latency: routes.first { $0.route == route }?.latency
                    ?? LatencyHistogram(route: route, bounds: MetricFamily.httpRequestDuration.buckets))
            routes.append(made)
            return made
        }
    }

    public func requestRefused(_ reason: RefusalReason) {
        for refusal in refusalCounters where refusal.reason == reason { refusal.counter.increment() }
    }

    public func responseAllocationFailed() {
        allocationFailures.increment()
    }

    // MARK: - Caches

    public func hit(_ resource: CacheResource, stale: Bool) {
        // Every configured resource's counters were made up front, so exactly one entry matches. By
        // index: iterating the tuples retained and released both counters of every resource.
        for index in hitCounters.indices where hitCounters[index].resource == resource {
            (stale ? hitCounters[index].stale : hitCounters[index].fresh).increment()
        }
    }

    public func freshHit(_ resource: CacheResource) -> any AnswerMemoHit {
        FreshHit(counter: hitCounters.first { $0.resource == resource }?.fresh)
    }

    /// A resource's fresh-hit counter, found once (`hit` searches the resources each time).
    private final class FreshHit: AnswerMemoHit {
        let counter: CoreMetrics.Counter?

        init(counter: CoreMetrics.Counter?) {
            self.counter = counter
        }

        func recordHit() {
            counter?.increment()
        }
    }

    public func miss(_ resource: CacheResource) {
        counter(.cacheMisses, [("resource", resource.rawValue)]).increment()
    }

    public func upstreamFetch(_ resource: CacheResource, outcome: FetchOutcome) {
        counter(.upstreamFetches, [("resource", resource.rawValue), ("outcome", outcome.rawValue)]).increment()
    }

    /// Counted for the resource, as `upstreamFetch(_:outcome:)` counts it, and for the upstream.
    public func upstreamFetch(_ resource: CacheResource, upstream: String, outcome: FetchOutcome) {
        upstreamFetch(resource, outcome: outcome)
        counter(.upstreamFetchesByUpstream, [("resource", resource.rawValue), ("upstream", upstream), ("outcome", outcome.rawValue)])
            .increment()
    }

    public func refreshed(_ resource: CacheResource, duration: Duration) {
        make.timer(.refreshDuration, [("resource", resource.rawValue)])
            .recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000
                + duration.components.attoseconds / 1_000_000_000)
    }

    public func regressionRefused(_ resource: CacheResource) {
        counter(.upstreamRegressionsRefused, [("resource", resource.rawValue)]).increment()
    }

    public func publicationMissed(_ resource: CacheResource) {
        counter(.publicationsMissed, [("resource", resource.rawValue)]).increment()
    }

    public func ratesCrossChecked(_ outcome: CrossCheckOutcome, disagreements: Int) {
        counter(.ratesCrossChecks, [("outcome", outcome.rawValue)]).increment()
        if disagreements > 0 { counter(.ratesCrossCheckDisagreements, []).increment(by: Int64(disagreements)) }
    }

    /// The counter of that family and labels, made once and kept (the hit counters are on the hot path).
    private func counter(_ family: MetricFamily, _ labels: [(String, String)]) -> CoreMetrics.Counter {
        let key = CounterKey(family: family, labels: labels.flatMap { [$0.0, $0.1] })
        return counters.withLock { counters in
            if let found = counters[key] { return found }
            let made = make.counter(family, labels)
            counters[key] = made
            return made
        }
    }
}
