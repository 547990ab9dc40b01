import Foundation
import LarderRates

/// Renders a time series (Frankfurter v1's shape) from the stored history, once per distinct request.
enum RatesSeries {
    /// `start_date` and `end_date` name the first and last days the series holds (Frankfurter does the
    /// same). Without a conversion the stored objects are copied as they are; with one, each day is
    /// converted on its own: a day without the base is left out, and so is a symbol a day lacks.
    static func render(
        _ history: RatesHistory, _ indices: ClosedRange<Int>, query: RatesQuery, newestBase: String
    ) throws(RatesQueryError) -> (bytes: [UInt8], lastModified: Date) {
        var lastModified = Date.distantPast
        if query.isDefault, history.hasOneBase {
            let days = indices.map { (history.days[$0].date, history.object(at: $0)) }
            for index in indices { lastModified = max(lastModified, history.days[index].storedAt) }
            let bytes = RatesJSON.series(
                amount: nil, base: history.days[indices.lowerBound].base, start: days.first!.0, end: days.last!.0,
                days: days)
            return (bytes, lastModified)
        }
        var converted = query
        converted.base = query.base ?? newestBase
        var days: [(RateDate, ArraySlice<UInt8>)] = []
        var seen = Set<String>()
        for index in indices {
            guard let set = history.set(at: index), let lines = CrossRates.lenientLines(for: set, query: converted) else {
                continue
            }
            seen.formUnion(lines.map(\.code))
            days.append((set.date, RatesJSON.object(lines: lines)[...]))
            lastModified = max(lastModified, history.days[index].storedAt)
        }
        let base = converted.base!
        guard let first = days.first, let final = days.last else {
            throw .unknownCurrency("unknown currency '\(base)': no stored day from \(history.days[indices.lowerBound].date) to \(history.days[indices.upperBound].date) has it")
        }
        for code in query.symbols ?? [] where !seen.contains(code) && code != base {
            throw .unknownCurrency("unknown currency '\(code)': no stored day from \(first.0) to \(final.0) has it")
        }
        let bytes = RatesJSON.series(amount: query.amount, base: base, start: first.0, end: final.0, days: days)
        return (bytes, lastModified)
    }
}
