import CoreMetrics
import Prometheus

extension LarderMetrics {
    /// Sets a gauge: state read when `/metrics` is scraped (readiness, staleness, counts).
    public func set(_ family: MetricFamily, _ value: Double, labels: [(String, String)] = []) {
        make.meter(family, labels).set(value)
    }

    /// The Prometheus text exposition of every metric, the process's figures read now.
    public func exposition() -> [UInt8] {
        var text = registry.emitToBuffer()
        // Written here rather than kept in the registry: its counters only count up, and the CPU time is a
        // total the kernel keeps.
        for (family, value) in ProcessMetrics.read()?.samples ?? [] {
            text.append(contentsOf: "# HELP \(family.name) \(family.help)\n".utf8)
            text.append(contentsOf: "# TYPE \(family.name) \(family.kind.rawValue)\n".utf8)
            text.append(contentsOf: "\(family.name) \(value)\n".utf8)
        }
        return text
    }
}
