import CoreMetrics
import Prometheus
import Synchronization

extension LarderMetrics {
    /// Sets a gauge: state read when `/metrics` is scraped (readiness, staleness, counts).
    public func set(_ family: MetricFamily, _ value: Double, labels: [(String, String)] = []) {
        make.meter(family, labels).set(value)
    }

    /// The Prometheus text exposition of every metric, the process's figures read now.
    public func exposition() -> [UInt8] {
        var text = registry.emitToBuffer()
        appendRequestDurations(to: &text)
        // Written here rather than kept in the registry: its counters only count up, and the CPU time and
        // the memo's answers are totals the kernel and the server keep.
        var totals = ProcessMetrics.read()?.samples ?? []
        if let read = memoAnswers.withLock({ $0 }) { totals.insert((.httpMemoAnswers, Double(read())), at: 0) }
        for (family, value) in totals {
            text.append(contentsOf: "# HELP \(family.name) \(family.help)\n".utf8)
            text.append(contentsOf: "# TYPE \(family.name) \(family.kind.rawValue)\n".utf8)
            text.append(contentsOf: "\(family.name) \(value)\n".utf8)
        }
        return text
    }

    /// `larder_http_request_duration_seconds`, kept outside the registry (`LatencyHistogram`), written
    /// as the registry writes a histogram family: nothing before the first answer, then one histogram
    /// per route. The registry orders its families by a dictionary's order, so where it goes is no change.
    private func appendRequestDurations(to text: inout [UInt8]) {
        var seen: Set<ObjectIdentifier> = []
        let histograms = routes.withLock { $0.map(\.latency) }.filter { seen.insert(ObjectIdentifier($0)).inserted }
        guard !histograms.isEmpty else { return }
        let family = MetricFamily.httpRequestDuration
        text.append(contentsOf: "# HELP \(family.name) ".utf8)
        for byte in family.help.utf8 {
            if byte == UInt8(ascii: "\\") { text.append(byte) }
            text.append(byte)
        }
        text.append(contentsOf: "\n# TYPE \(family.name) \(family.kind.rawValue)\n".utf8)
        for histogram in histograms { histogram.emit(family.name, into: &text) }
    }
}
