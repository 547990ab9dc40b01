/// Frankfurter's `Consensus`: where at least four providers quote a currency, a provider's rate further
/// from the median than ten median absolute deviations (and than 5 % of the median) is an outlier,
/// kept in `expand=providers` but marked excluded and left out of the average.
enum V2Consensus {
    static let minProviders = 4
    static let multiplier = 10.0
    static let minDeviation = 0.05

    /// The rows with `excluded` set on every row of an outlying (provider, quote).
    static func annotated(_ rows: [V2Observation]) -> [(row: V2Observation, excluded: Bool)] {
        var byQuote: [String: [V2Observation]] = [:]
        for row in rows { byQuote[row.quote, default: []].append(row) }
        var flagged = Set<String>()
        for (quote, group) in byQuote where Set(group.map(\.provider)).count >= minProviders {
            let values = group.map(\.rate)
            let median = median(values)
            let deviation = Self.median(values.map { abs($0 - median) })
            let threshold = max(multiplier * deviation, minDeviation * abs(median))
            for row in group where abs(row.rate - median) > threshold { flagged.insert(row.provider + "/" + quote) }
        }
        return rows.map { ($0, flagged.contains($0.provider + "/" + $0.quote)) }
    }

    /// Ruby's `sorted[size / 2]`: the upper median of an even count.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
