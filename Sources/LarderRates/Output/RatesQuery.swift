public import Foundation

/// A validated `/rates` query: `base`/`from`, `symbols`/`to`, `amount` (SPEC §3).
public struct RatesQuery: Sendable, Hashable {
    /// The currency to quote against; nil means the set's own base.
    public var base: String?
    /// The currencies to list, deduplicated, in request order; nil means all.
    public var symbols: [String]?
    /// nil means 1.
    public var amount: Decimal?

    public init(base: String? = nil, symbols: [String]? = nil, amount: Decimal? = nil) {
        self.base = base
        self.symbols = symbols
        self.amount = amount
    }

    /// True when the answer is the set as published (no conversion, every currency).
    public var isDefault: Bool { base == nil && symbols == nil && amount == nil }

    /// The query parameters `/rates` accepts; any other is refused (SPEC §6).
    public static let parameterNames: Set<String> = ["base", "from", "symbols", "to", "amount"]

    /// Reads and checks the parameters' syntax; currencies are checked against a set later (`CrossRates`).
    public static func parse(_ items: [(name: String, value: String)]) throws(RatesQueryError) -> RatesQuery {
        var seen: [String: String] = [:]
        for (name, value) in items {
            guard parameterNames.contains(name) else {
                throw .badRequest(
                    "unknown query parameter '\(name)'; accepted: amount, base (or from), symbols (or to)")
            }
            let canonical = name == "from" ? "base" : name == "to" ? "symbols" : name
            guard seen[canonical] == nil else {
                throw .badRequest("'\(name)' is given more than once (base/from and symbols/to are aliases)")
            }
            seen[canonical] = value
        }
        var query = RatesQuery()
        if let base = seen["base"] {
            query.base = try code(base, parameter: "base")
        }
        if let symbols = seen["symbols"] {
            var codes: [String] = []
            for part in symbols.split(separator: ",", omittingEmptySubsequences: false) {
                let code = try code(String(part), parameter: "symbols")
                if !codes.contains(code) { codes.append(code) }
            }
            query.symbols = codes
        }
        if let amount = seen["amount"] {
            query.amount = try Self.amount(amount)
        }
        if let base = query.base, query.symbols == [base] {
            throw .unprocessable("bad currency pair: base and the only symbol are both \(base)")
        }
        return query
    }

    /// `text` as a currency code, upper-cased, or a 400 naming `parameter` (the status page's query too).
    public static func code(_ text: String, parameter: String) throws(RatesQueryError) -> String {
        let upper = text.uppercased()
        guard CurrencyRate.isValidCode(upper) else {
            throw .badRequest("\(parameter): '\(text.prefix(40))' is not a currency code (three letters, like USD)")
        }
        return upper
    }

    private static func amount(_ text: String) throws(RatesQueryError) -> Decimal {
        // The same plain notation as published rates: digits with at most one dot, no sign or exponent.
        let bytes = Array(text.utf8)
        let digits = bytes.filter { $0 != UInt8(ascii: ".") }
        guard !bytes.isEmpty, bytes.count <= 24, digits.count >= bytes.count - 1,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), !digits.isEmpty,
              bytes.first != UInt8(ascii: "."), bytes.last != UInt8(ascii: "."),
              let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw .invalidAmount("amount: '\(text.prefix(40))' is not a positive decimal number like 100 or 12.5")
        }
        guard value > 0 else { throw .unprocessable("amount must be greater than zero") }
        return value
    }
}

/// A `/rates` query Larder cannot answer; each case has its status on Larder's own routes
/// (docs/rates.md). Frankfurter's routes read their queries as Frankfurter does (`FrankfurterV1Query`).
public enum RatesQueryError: Error, Sendable, Equatable {
    /// Bad syntax or an unknown parameter (400).
    case badRequest(String)
    /// Well-formed but unanswerable (422), such as `base` equal to the only symbol, or a zero amount.
    case unprocessable(String)
    /// A currency the stored data does not have (422).
    case unknownCurrency(String)
    /// An amount that is not a number (400).
    case invalidAmount(String)
    /// A date-shaped path that names no real day, or a range ending before it starts (400).
    case invalidDate(String)

    public var message: String {
        switch self {
        case .badRequest(let message), .unprocessable(let message), .unknownCurrency(let message),
             .invalidAmount(let message), .invalidDate(let message):
            return message
        }
    }
}
