public import LarderRates

/// A mirror's coverage, read once from its rows: each provider's currencies (as base or quote) with their
/// first and last day, the same per currency over every provider, and the order Frankfurter's currency
/// table would hold them in — what `/v2/providers`, `/v2/currencies` and `/v2/currency/{code}` answer from.
public struct ProviderCoverage: Sendable {
    private(set) var byProvider: [String: [String: CurrencyCoverage.Span]] = [:]
    private(set) var spans: [String: CurrencyCoverage.Span] = [:]

    /// From each (provider, base, quote)'s first and last day, as a mirror's store keeps them.
    public init(spans: [(provider: String, base: String, quote: String, first: RateDate, last: RateDate)]) {
        for span in spans {
            for code in [span.base, span.quote] {
                note(span.provider, code, span.first)
                note(span.provider, code, span.last)
            }
        }
    }

    init(_ rows: any V2RowSource) {
        for index in 0..<rows.count {
            guard let date = RateDate(dayNumber: rows.day(at: index)) else { continue }
            for row in rows.rows(at: index) {
                note(row.provider, row.base, date)
                note(row.provider, row.quote, date)
            }
        }
    }

    private mutating func note(_ provider: String, _ code: String, _ date: RateDate) {
        byProvider[provider, default: [:]][code] = Self.widened(byProvider[provider]?[code], date)
        spans[code] = Self.widened(spans[code], date)
    }

    private static func widened(_ span: CurrencyCoverage.Span?, _ date: RateDate) -> CurrencyCoverage.Span {
        guard var span else { return CurrencyCoverage.Span(first: date, last: date) }
        span.first = min(span.first, date)
        span.last = max(span.last, date)
        return span
    }

    /// The providers quoting `code`, by key.
    func providers(of code: String) -> [String] {
        byProvider.filter { $0.value[code] != nil }.keys.sorted()
    }

    /// The currencies of the providers `keys` names, in the order Frankfurter's currency table holds
    /// them: its ingest creates a currency when a provider first brings it, a provider at a time (taken
    /// here in order of key, its new currencies in order of code). An upstream's real order follows the
    /// history of its ingest, which its API does not show.
    func currencies(of keys: Set<String>) -> [String] {
        var created: [String] = []
        var seen = Set<String>()
        for provider in byProvider.keys.sorted() {
            for code in byProvider[provider]!.keys.sorted() where seen.insert(code).inserted { created.append(code) }
        }
        let covered = Set(byProvider.filter { keys.contains($0.key) }.values.flatMap(\.keys))
        return created.filter(covered.contains)
    }
}
