import Foundation
import LarderHTTP
import LarderRates

extension FuzzTarget {
    /// A rates request's date part and query string (first line, then the rest), split and
    /// decoded as the server does, through `DateSelection` and `RatesQuery`: every route's parsers.
    /// What they accept is well formed and re-encodes to the same selection and query.
    static let ratesQuery = FuzzTarget("rates-query") { input throws(PropertyViolation) in
        let lines = parts(input, 2)
        try checkSelection(lines[0])
        guard let items = queryItems(lines[1]) else { return }
        let query: RatesQuery
        do throws(RatesQueryError) {
            query = try RatesQuery.parse(items)
        } catch {
            try expect(!error.message.isEmpty, "a refusal without a message")
            return
        }
        if let base = query.base { try expect(CurrencyRate.isValidCode(base), "base \(base.debugDescription)") }
        if let symbols = query.symbols {
            try expect(!symbols.isEmpty && Set(symbols).count == symbols.count, "symbols \(symbols)")
            try expect(symbols.allSatisfy { CurrencyRate.isValidCode($0) }, "symbols \(symbols)")
            try expect(query.base.map { symbols != [$0] } ?? true, "base equal to the only symbol")
        }
        if let amount = query.amount { try expect(amount > 0, "amount \(amount)") }
        // The canonical spelling of what was understood reads back as the same query.
        var canonical: [(name: String, value: String)] = []
        if let base = query.base { canonical.append(("base", base)) }
        if let symbols = query.symbols { canonical.append(("symbols", symbols.joined(separator: ","))) }
        if let amount = query.amount { canonical.append(("amount", "\(amount)")) }
        let again = try? RatesQuery.parse(canonical)
        try expect(again == query, "\(query) re-encoded as \(canonical) reads as \(String(describing: again))")
    }

    private static func checkSelection(_ text: String) throws(PropertyViolation) {
        guard let selection = try? DateSelection.parse(text) else { return }
        // Routes hand over only date-shaped segments; the parser must accept nothing else.
        try expect(DateSelection.looksLikeSelection(text), "\(text.debugDescription) parses but is not date-shaped")
        let spelled: String
        switch selection {
        case .day(let day):
            spelled = "\(day)"
        case .range(let start, let end):
            try expect(end.map { start <= $0 } ?? true, "a range ending before it starts: \(text.debugDescription)")
            spelled = "\(start).." + (end.map { "\($0)" } ?? "")
        }
        try expect(spelled == text, "\(text.debugDescription) parses as \(spelled.debugDescription)")
    }

    /// `a=1&b=2` as libmicrohttpd splits it (Larder's unescape callback leaves escapes alone), then
    /// each part percent-decoded as `RequestReader` decodes it; nil when one does not decode (a 400).
    private static func queryItems(_ query: String) -> [(name: String, value: String)]? {
        var items: [(name: String, value: String)] = []
        for field in query.split(separator: "&") {
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(pair[0], plusIsSpace: true),
                  let value = PercentDecoding.decode(pair.count > 1 ? pair[1] : "", plusIsSpace: true) else { return nil }
            items.append((name, value))
        }
        return items
    }
}
