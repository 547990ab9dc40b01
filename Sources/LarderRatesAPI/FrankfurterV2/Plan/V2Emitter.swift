import LarderRates

/// Frankfurter v2's `emit_records`: one blended batch to answer rows — the quotes filter, rounding
/// by magnitude (or a single named provider's own digits), the base's identity row, and the order.
public struct V2Emitter: Sendable {
    public let base: String
    public let quotes: [String]?
    /// Rows keep the provider's published digits (`providers=` names exactly one, daily rows only).
    public let passthrough: Bool
    public let expandProviders: Bool
    /// A range sorts by date then quote; one day by quote alone.
    public let isRange: Bool

    public init(base: String, quotes: [String]?, passthrough: Bool, expandProviders: Bool, isRange: Bool) {
        self.base = base
        self.quotes = quotes
        self.passthrough = passthrough
        self.expandProviders = expandProviders
        self.isRange = isRange
    }

    /// The answer rows of one batch: `blended` from `rows` (the contributors, for the published digits).
    public func records(_ blended: [V2Blended], from rows: [V2Observation]) -> [V2Record] {
        guard !blended.isEmpty else { return [] }
        var published: [String: Double] = [:]
        if passthrough {
            for row in rows { published[row.base + "/" + row.quote] = row.rate }
        }
        var records: [V2Record] = []
        records.reserveCapacity(blended.count + 1)
        for row in blended {
            if let quotes, !quotes.contains(row.quote) { continue }
            let stored = passthrough ? published[row.base + "/" + row.quote] : nil
            let rate = stored.map(RubyFloatText.text) ?? Self.rounded(row.rate)
            var providers: [V2Record.Provider]?
            if expandProviders, let contributions = row.providers {
                providers = contributions.compactMap { part in
                    guard let date = RateDate(dayNumber: part.day) else { return nil }
                    let text = stored.map(RubyFloatText.text) ?? Self.rounded(part.rate)
                    return V2Record.Provider(key: part.key, date: date, rate: text, excluded: part.excluded)
                }
            }
            guard let date = RateDate(dayNumber: row.day) else { continue }
            records.append(V2Record(date: date, base: row.base, quote: row.quote, rate: rate, providers: providers))
        }
        if quotes?.contains(base) ?? true, !records.contains(where: { $0.quote == base }) {
            let reference = records.map(\.date).max() ?? blended.map(\.day).max().flatMap(RateDate.init(dayNumber:))
            if let reference {
                records.append(V2Record(date: reference, base: base, quote: base, rate: "1.0", providers: nil))
            }
        }
        if isRange {
            records.sort { ($0.date, $0.quote) < ($1.date, $1.quote) }
        } else {
            records.sort { $0.quote < $1.quote }
        }
        return records
    }

    /// Rounded by magnitude and written as Frankfurter writes it (an integer above 5000).
    static func rounded(_ value: Double) -> String {
        let rounded = FrankfurterRounding.round(value)
        if value > 5000, abs(rounded) < 1e18 { return String(Int64(rounded)) }
        return RubyFloatText.text(rounded)
    }
}
