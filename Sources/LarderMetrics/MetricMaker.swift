import CoreMetrics
import Prometheus

/// Makes swift-metrics' types over handlers the registry makes with the family's help text.
///
/// Not through `PrometheusMetricsFactory`: swift-prometheus 2.4.1's factory registers every family with an
/// empty help, and the registry traps when one family is registered with two different helps, so the
/// factory path cannot carry `# HELP`. The registry's `descriptor:` API can; swift-metrics' wrappers keep
/// the recording code what it was, and the factory only takes the handlers back when they are destroyed.
struct MetricMaker: Sendable {
    let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory

    func counter(_ family: MetricFamily, _ labels: [(String, String)]) -> CoreMetrics.Counter {
        let handler = registry.makeCounter(descriptor: family.descriptor(.counter), labels: labels)
        return CoreMetrics.Counter(label: family.name, dimensions: labels, handler: handler, factory: factory)
    }

    func timer(_ family: MetricFamily, _ labels: [(String, String)]) -> CoreMetrics.Timer {
        let handler = registry.makeDurationHistogram(
            descriptor: family.descriptor(.histogram), labels: labels, buckets: family.buckets)
        return CoreMetrics.Timer(label: family.name, dimensions: labels, handler: handler, factory: factory)
    }

    func meter(_ family: MetricFamily, _ labels: [(String, String)]) -> CoreMetrics.Meter {
        let handler = registry.makeGauge(descriptor: family.descriptor(.gauge), labels: labels)
        return CoreMetrics.Meter(label: family.name, dimensions: labels, handler: handler, factory: factory)
    }
}

extension MetricFamily {
    /// The whole name as the metric name (the registry joins the parts; Larder's names are whole already).
    fileprivate func descriptor(_ expected: Kind) -> MetricNameDescriptor {
        precondition(kind == expected, "\(name) is a \(kind), not a \(expected)")
        return MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// A histogram's bucket bounds, fixed when its family is first registered.
    var buckets: [Duration] {
        switch self {
        case .refreshDuration:
            [
                .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1),
                .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120),
            ]
        default:
            // Requests: a cached answer takes tens of microseconds, a cold one waits for the upstream.
            [
                .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
                .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(2.5), .seconds(10),
            ]
        }
    }
}
