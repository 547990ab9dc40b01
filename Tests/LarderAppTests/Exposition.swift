/// The value of one sample line of a Prometheus exposition, e.g. `larder_cache_hits_total{resource="rates"}`.
func sample(_ exposition: String, _ series: String) -> Double? {
    for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1))
    }
    return nil
}

/// A Prometheus text exposition read as families: each one's `# HELP` and `# TYPE` lines, and the family
/// each sample line belongs to (a histogram's `_bucket`, `_sum` and `_count` lines to the histogram).
struct Exposition {
    /// Every `# HELP` text, by family name (more than one when a family is described twice).
    var help: [String: [String]] = [:]
    /// Every `# TYPE`, by family name.
    var type: [String: [String]] = [:]
    /// Sample lines whose family has no `# TYPE`.
    var untyped: [String] = []
    /// The names of the families that have at least one sample.
    var sampled: Set<String> = []

    init(_ text: String) {
        var samples: [(name: String, line: String)] = []
        for line in text.split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if line.hasPrefix("# HELP "), words.count >= 3 {
                help[words[2], default: []].append(words.count == 4 ? words[3] : "")
            } else if line.hasPrefix("# TYPE "), words.count == 4 {
                type[words[2], default: []].append(words[3])
            } else if !line.hasPrefix("#") {
                samples.append((String(line.prefix { $0 != "{" && $0 != " " }), line))
            }
        }
        for (name, line) in samples {
            let histogram = ["_bucket", "_sum", "_count"].lazy
                .filter { name.hasSuffix($0) }
                .map { String(name.dropLast($0.count)) }
                .first { self.type[$0] == ["histogram"] }
            let family = histogram ?? name
            if type[family] == nil { untyped.append(line) }
            sampled.insert(family)
        }
    }
}
