import LarderHTTP
import LarderRates
import LarderRatesCache

/// What `GET /?base=&currency=` asks for: the rates table's base and the chart's currency, each
/// optional; any other parameter is refused, as on the rates routes (SPEC §6).
struct PageQuery: Sendable, Equatable {
    var base: String?
    var currency: String?

    static func parse(_ query: QueryItems) throws(HTTPError) -> PageQuery {
        var parsed = PageQuery()
        for (name, value) in query {
            switch name {
            case "base":
                guard parsed.base == nil else { throw repeated(name) }
                parsed.base = try code(value, parameter: name)
            case "currency":
                guard parsed.currency == nil else { throw repeated(name) }
                parsed.currency = try code(value, parameter: name)
            default:
                throw .badRequest("unknown query parameter '\(name.prefix(40))'; accepted: base, currency")
            }
        }
        return parsed
    }

    /// The base and chart currency to show from `rates`: the feed's base and USD (or the first other
    /// currency) unless asked otherwise. A chart currency equal to the base falls back to the default,
    /// so switching the base on a page charting that currency still shows a page.
    func selection(in rates: RatesView) throws(HTTPError) -> PageSelection {
        let codes = rates.codes
        let base = self.base ?? rates.base
        guard codes.contains(base) else {
            throw .badRequest("base: unknown currency '\(base)': the \(rates.date) rates have no such currency")
        }
        if let currency, currency != base {
            guard codes.contains(currency) else {
                throw .badRequest("currency: unknown currency '\(currency)': the \(rates.date) rates have no such currency")
            }
            return PageSelection(base: base, currency: currency)
        }
        let others = codes.filter { $0 != base }
        let fallback = ["USD", "EUR"].first { others.contains($0) } ?? others.first
        return PageSelection(base: base, currency: fallback)
    }

    private static func code(_ value: String, parameter: String) throws(HTTPError) -> String {
        do {
            return try RatesQuery.code(value, parameter: parameter)
        } catch {
            guard case .badRequest(let message) = error else { throw .badRequest("\(error)") }
            throw .badRequest(message)
        }
    }

    private static func repeated(_ name: String) -> HTTPError {
        .badRequest("'\(name)' is given more than once")
    }
}

/// The base and chart currency a page shows (nil currency: the newest day has no other currency).
struct PageSelection: Sendable, Hashable {
    let base: String
    let currency: String?
}
