@testable import LarderMetrics
import Prometheus
import Testing

/// `larder_http_request_duration_seconds` is Larder's own histogram (`LatencyHistogram`): its text must
/// be the text swift-prometheus' `DurationHistogram` writes for the same observations.
@Suite("The request latency histogram")
struct LatencyHistogramTests {
    static let family = MetricFamily.httpRequestDuration
    /// On, under, over and between the bounds, past the last one, and zero.
    static let observations: [Int64] = [
        0, 1, 49_999, 50_000, 50_001, 180_000, 2_500_000, 2_500_001, 123_456_789, 999_999_999, 10_000_000_000,
        60_000_000_000,
    ]

    /// The family's lines as swift-prometheus writes them, one histogram per route.
    static func prometheusLines(_ routes: [String]) -> [Substring] {
        let registry = PrometheusCollectorRegistry()
        for route in routes {
            let histogram = registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(metricName: family.name, unitName: "", helpText: family.help),
                labels: [("route", route)], buckets: family.buckets)
            for nanoseconds in observations { histogram.record(.nanoseconds(nanoseconds)) }
        }
        return registry.emitToString().split(separator: "\n")
    }

    @Test("one route's lines, a label that needs escaping included")
    func sameLines() {
        for route in ["/rates", "unmatched", #"/odd"route\with"#] {
            let histogram = LatencyHistogram(route: route, bounds: Self.family.buckets)
            for nanoseconds in Self.observations { histogram.record(nanoseconds: nanoseconds) }
            var text: [UInt8] = []
            histogram.emit(Self.family.name, into: &text)
            let expected = Self.prometheusLines([route]).filter { !$0.hasPrefix("#") }
            #expect(String(decoding: text, as: UTF8.self).split(separator: "\n") == expected)
        }
    }

    @Test("the family in /metrics: its help, its type, one histogram per route whatever the status")
    func sameFamily() {
        let metrics = LarderMetrics(resources: [], version: "test", libmicrohttpd: "test")
        #expect(!String(decoding: metrics.exposition(), as: UTF8.self).contains(Self.family.name))
        for route in ["/rates", "/documents"] {
            for (index, nanoseconds) in Self.observations.enumerated() {
                metrics.requestCompleted(route: route, status: index % 2 == 0 ? 200 : 304, nanoseconds: nanoseconds)
            }
        }
        let ours = String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix(Self.family.name) || $0.hasPrefix("# HELP \(Self.family.name) ")
                || $0.hasPrefix("# TYPE \(Self.family.name) ") }
        let theirs = Self.prometheusLines(["/rates", "/documents"])
        #expect(ours.sorted() == theirs.sorted())
        #expect(ours.prefix(2) == theirs.prefix(2))
    }
}
