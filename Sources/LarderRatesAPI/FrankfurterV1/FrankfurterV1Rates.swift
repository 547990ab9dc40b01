public import LarderRates

/// One day's rates as Frankfurter v1 converts them (`lib/versions/v1/quote/base.rb`), step for step in
/// `Double`, so the digits are Frankfurter's: each selected rate times the amount, rounded by magnitude
/// when the amount is not 1 or the base is not the data's own; then, for another base, each divided by
/// the base's value (the data's own base counting as the amount), times the amount, and rounded again.
public enum FrankfurterV1Rates {
    /// The rates object's lines, sorted by code; nil when nothing is left (an unknown base, or no
    /// symbol the day has), which is "not found" for a day and a day left out of a series. An amount
    /// so small that the base's value rounds to 0 leaves no number to divide by: `invalid amount`
    /// (Frankfurter fails there too, with Ruby's message for the infinity or NaN).
    public static func lines(for set: RateSet, query: FrankfurterV1Query) throws(FrankfurterV1Error) -> [CrossRates.Line]? {
        let pivot = set.base
        let base = query.base ?? pivot
        let amount = query.amount ?? 1
        let symbols = query.symbols.map(Set.init)
        let selected = set.rates.filter { symbols == nil || symbols!.contains($0.code) || $0.code == base }
        if base == pivot, amount == 1 {
            // Nothing to compute: the published digits, as Frankfurter echoes its stored value.
            let lines = selected.map { ($0.code, $0.value.text) }.sorted { $0.0 < $1.0 }
            return lines.isEmpty ? nil : lines
        }
        var values: [String: Double] = [:]
        for rate in selected {
            guard let value = Double(rate.value.text) else { continue }
            values[rate.code] = FrankfurterRounding.round(amount * value)
        }
        if base == pivot {
            return values.isEmpty ? nil : try Self.texts(values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
        if symbols == nil || symbols!.contains(pivot) { values[pivot] = amount }
        guard let divisor = values.removeValue(forKey: base), !values.isEmpty else { return nil }
        guard divisor > 0 else { throw .invalidAmount }
        let converted = values.sorted { $0.key < $1.key }.map { ($0.key, FrankfurterRounding.round(amount * $0.value / divisor)) }
        return try Self.texts(converted)
    }

    /// The JSON numbers of `values`; an amount whose product leaves the doubles (`inf`, which JSON
    /// cannot write) is `invalid amount`, as nothing else could be answered.
    private static func texts(_ values: [(String, Double)]) throws(FrankfurterV1Error) -> [CrossRates.Line] {
        guard values.allSatisfy({ $0.1.isFinite }) else { throw .invalidAmount }
        return values.map { ($0.0, FrankfurterRounding.text($0.1)) }
    }

    /// `amount` as Frankfurter writes it (a float: `10.0`), or nil for the default of 1.
    public static func amountText(_ query: FrankfurterV1Query) -> String? {
        query.amount.map(FrankfurterRounding.text)
    }
}
