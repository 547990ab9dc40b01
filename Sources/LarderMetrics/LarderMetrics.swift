import CoreMetrics
import LarderHTTP
import LarderServing
import Prometheus
import Synchronization

/// Larder's Prometheus metrics (SPEC §3 `/metrics`), recorded through swift-metrics into one registry.
///
/// Not bootstrapped as the process-wide `MetricsSystem`: every metric is made with this factory,
/// so tests can run several Larders in one process, each with its own numbers.
public final class LarderMetrics: RequestObserver, CacheEvents {
    public let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory

    /// Per route: its latency histogram and a counter per status, found with one lock on the hot path.
    private final class RouteMetrics: Sendable {
        let latency: CoreMetrics.Timer
        let byStatus = Mutex<[Int: CoreMetrics.Counter]>([:])

        init(latency: CoreMetrics.Timer) {
            self.latency = latency
        }
    }

    private let routes = Mutex<[String: RouteMetrics]>([:])

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
    }

    // MARK: - Requests

    public func requestCompleted(route: String, status: Int, duration: Duration) {
        let metrics = routes.withLock { routes in
            if let found = routes[route] { return found }
            let made = RouteMetrics(latency: CoreMetrics.Timer(
                label: "larder_http_request_duration_seconds", dimensions: [("route", route)], factory: factory))
            routes[route] = made
            return made
        }
        let counter = metrics.byStatus.withLock { counters in
            if let found = counters[status] { return found }
            let made = CoreMetrics.Counter(
                label: "larder_http_requests_total", dimensions: [("route", route), ("status", String(status))],
                factory: factory)
            counters[status] = made
            return made
        }
        counter.increment()
        metrics.latency.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000
            + duration.components.attoseconds / 1_000_000_000)
    }

    // MARK: - Caches

    public func hit(_ resource: String, stale: Bool) {
        counter(stale ? "larder_cache_stale_hits_total" : "larder_cache_hits_total", [("resource", resource)]).increment()
    }

    public func miss(_ resource: String) {
        counter("larder_cache_misses_total", [("resource", resource)]).increment()
    }

    public func upstreamFetch(_ resource: String, outcome: String) {
        counter("larder_upstream_fetches_total", [("resource", resource), ("outcome", outcome)]).increment()
    }

    public func refreshed(_ resource: String, duration: Duration) {
        CoreMetrics.Timer(label: "larder_refresh_duration_seconds", dimensions: [("resource", resource)], factory: factory)
            .recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000
                + duration.components.attoseconds / 1_000_000_000)
    }

    public func regressionRefused(_ resource: String) {
        counter("larder_upstream_regressions_refused_total", [("resource", resource)]).increment()
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
