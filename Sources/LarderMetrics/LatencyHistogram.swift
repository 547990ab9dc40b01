import Prometheus
import Synchronization

/// One route's request latency in `larder_http_request_duration_seconds`, written in the text
/// swift-prometheus' `DurationHistogram` writes, line for line.
///
/// Not that histogram: it walks every bucket comparing `Duration`s (128-bit) and adds a `Duration`
/// per observation, about 800 instructions on a request whose own work is a few thousand. Here an
/// observation finds its one bucket by comparing plain nanoseconds and counts it under one lock; the
/// cumulative counts are summed when `/metrics` is scraped.
final class LatencyHistogram: Sendable {
    private struct Counts {
        /// Per bucket, not cumulative; the last is `+Inf`'s own.
        var buckets: [Int]
        var sumNanoseconds: Int64 = 0
    }

    /// The family's bounds, for the `le` labels, and as nanoseconds, for the hot path.
    private let bounds: [Duration]
    private let boundNanoseconds: [Int64]
    /// `route="…"`, escaped once.
    private let labels: [UInt8]
    private let counts: Mutex<Counts>

    init(route: String, bounds: [Duration]) {
        self.bounds = bounds
        boundNanoseconds = bounds.map { $0.components.seconds * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000 }
        var labels = Array(#"route=""#.utf8)
        labels.appendEscapedLabelValue(route)
        labels.append(UInt8(ascii: "\""))
        self.labels = labels
        counts = Mutex(Counts(buckets: Array(repeating: 0, count: bounds.count + 1)))
    }

    /// An observation is in the first bucket whose bound is at least it, as swift-prometheus counts.
    func record(nanoseconds: Int64) {
        var index = 0
        while index < boundNanoseconds.count, nanoseconds > boundNanoseconds[index] { index += 1 }
        counts.withLock { counts in
            counts.buckets[index] += 1
            counts.sumNanoseconds += nanoseconds
        }
    }

    /// The `_bucket`, `_sum` and `_count` lines of this route, as `Histogram.emit(into:)` writes them.
    func emit(_ name: String, into buffer: inout [UInt8]) {
        let counts = counts.withLock { $0 }
        var cumulative = 0
        for (index, count) in counts.buckets.enumerated() {
            cumulative += count
            buffer.append(contentsOf: name.utf8)
            buffer.append(contentsOf: "_bucket{".utf8)
            buffer.append(contentsOf: labels)
            let bound = index < bounds.count ? bounds[index].bucketRepresentation : "+Inf"
            buffer.append(contentsOf: #",le=""#.utf8)
            buffer.append(contentsOf: bound.utf8)
            buffer.append(contentsOf: "\"} \(cumulative)\n".utf8)
        }
        let sum = Duration.nanoseconds(counts.sumNanoseconds).bucketRepresentation
        for (suffix, value) in [("_sum", sum), ("_count", "\(cumulative)")] {
            buffer.append(contentsOf: name.utf8)
            buffer.append(contentsOf: suffix.utf8)
            buffer.append(UInt8(ascii: "{"))
            buffer.append(contentsOf: labels)
            buffer.append(contentsOf: "} \(value)\n".utf8)
        }
    }
}

extension [UInt8] {
    /// A label value escaped as the text format requires (backslash, double quote, line feed).
    fileprivate mutating func appendEscapedLabelValue(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\""): append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\n"): append(contentsOf: #"\n"#.utf8)
            default: append(byte)
            }
        }
    }
}
