import CoreMetrics
public import LarderHTTP
public import LarderServing
public import Prometheus
import Synchronization

/// Larder's Prometheus metrics (SPEC §3 `/metrics`), recorded through swift-metrics into one registry.
///
/// Not bootstrapped as the process-wide `MetricsSystem`: every metric is made with this factory,
/// so tests can run several Larders in one process, each with its own numbers.
public final class LarderMetrics: RequestObserver, CacheEvents {
    public let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory

    /// Per route and status: the request counter and the route's latency histogram.
    private struct RouteMetrics: Sendable {
        let route: String
        let status: Int
        let requests: CoreMetrics.Counter
        let latency: CoreMetrics.Timer
    }

    /// Found with one lock on the hot path, by a linear search: a few dozen pairs, and the route
    /// text is the router's own string, so comparing it is cheaper than hashing it.
    private let routes = Mutex<[RouteMetrics]>([])

    /// The hit counters of the resources Larder has, made up front so a hit takes no lock (and,
    /// searched in a three-element list, no hashing).
    private let hitCounters: [(resource: CacheResource, fresh: CoreMetrics.Counter, stale: CoreMetrics.Counter)]

    private struct CounterKey: Hashable {
        let name: String
        let dimensions: [String]
    }

    private let counters = Mutex<[CounterKey: CoreMetrics.Counter]>([:])

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        let buckets: [Duration] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(2.5), .seconds(10),
        ]
        factory.durationHistogramBuckets["larder_http_request_duration_seconds"] = buckets
        factory.durationHistogramBuckets["larder_refresh_duration_seconds"] = [
            .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1),
            .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120),
        ]
        self.factory = factory
        hitCounters = CacheResource.allCases.map { resource in
            (resource,
             CoreMetrics.Counter(label: "larder_cache_hits_total", dimensions: [("resource", resource.rawValue)], factory: factory),
             CoreMetrics.Counter(label: "larder_cache_stale_hits_total", dimensions: [("resource", resource.rawValue)], factory: factory))
        }
    }

    // MARK: - Requests

    public func requestCompleted(route: String, status: Int, nanoseconds: Int64) {
        let metrics = routes.withLock { routes in
            if let found = routes.first(where: { $0.status == status && $0.route == route }) { return found }
            // The factory hands back the same histogram for the same route, whatever the status.
            let made = RouteMetrics(
                route: route, status: status,
                requests: CoreMetrics.Counter(
                    label: "larder_http_requests_total", dimensions: [("route", route), ("status", String(status))],
                    factory: factory),
                latency: CoreMetrics.Timer(
                    label: "larder_http_request_duration_seconds", dimensions: [("route", route)], factory: factory))
            routes.append(made)
            return made
        }
        metrics.requests.increment()
        metrics.latency.recordNanoseconds(nanoseconds)
    }

    // MARK: - Caches

    public func hit(_ resource: CacheResource, stale: Bool) {
        // Every resource's counters were made up front, so exactly one entry matches.
        for counters in hitCounters where counters.resource == resource {
            (stale ? counters.stale : counters.fresh).increment()
        }
    }

    public func miss(_ resource: CacheResource) {
        counter("larder_cache_misses_total", [("resource", resource.rawValue)]).increment()
    }

    public func upstreamFetch(_ resource: CacheResource, outcome: FetchOutcome) {
        counter("larder_upstream_fetches_total", [("resource", resource.rawValue), ("outcome", outcome.rawValue)]).increment()
    }

    public func refreshed(_ resource: CacheResource, duration: Duration) {
        CoreMetrics.Timer(label: "larder_refresh_duration_seconds", dimensions: [("resource", resource.rawValue)], factory: factory)
            .recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000
                + duration.components.attoseconds / 1_000_000_000)
    }

    public func regressionRefused(_ resource: CacheResource) {
        counter("larder_upstream_regressions_refused_total", [("resource", resource.rawValue)]).increment()
    }

    public func publicationMissed(_ resource: CacheResource) {
        counter("larder_publications_missed_total", [("resource", resource.rawValue)]).increment()
    }

    /// Sets a gauge (documents count and bytes, seconds since the last success), read at scrape time.
    public func gauge(_ name: String, _ dimensions: [(String, String)] = [], _ value: Double) {
        CoreMetrics.Gauge(label: name, dimensions: dimensions, factory: factory).record(value)
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// The counter of that name and labels, made once and kept (the hit counters are on the hot path).
    private func counter(_ name: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        let key = CounterKey(name: name, dimensions: dimensions.flatMap { [$0.0, $0.1] })
        return counters.withLock { counters in
            if let found = counters[key] { return found }
            let made = CoreMetrics.Counter(label: name, dimensions: dimensions, factory: factory)
            counters[key] = made
            return made
        }
    }
}
