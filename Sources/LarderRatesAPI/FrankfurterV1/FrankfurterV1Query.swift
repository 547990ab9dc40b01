/// A query of Frankfurter v1's rates routes, read as Frankfurter reads it (`lib/versions/v1/query.rb`):
/// `from` (or `base`), `to` (or `symbols`), `amount`; any other parameter is ignored, and of a repeated
/// one the last counts. Codes are upper-cased and not checked here: one the data lacks is "not found".
public struct FrankfurterV1Query: Sendable, Hashable {
    /// nil: not given (1).
    public var amount: Double?
    /// nil: the data's own base (EUR for the ECB).
    public var base: String?
    /// nil: every currency. Empty parts are kept, trailing ones dropped, as Ruby's `split(",")` does.
    public var symbols: [String]?

    public init(amount: Double? = nil, base: String? = nil, symbols: [String]? = nil) {
        self.amount = amount
        self.base = base
        self.symbols = symbols
    }

    /// The largest amount taken: ample for money, and far from overflowing a double in any conversion.
    public static let maxAmount = 1e250

    /// Reads the parameters; an amount that is not a positive number is `invalid amount`. The currency
    /// pair is checked apart (`checkPair`), after the path's dates, in Frankfurter's order.
    public static func parse(_ items: some Sequence<(name: String, value: String)>) throws(FrankfurterV1Error)
        -> FrankfurterV1Query {
        var last: [String: String] = [:]
        for (name, value) in items where ["from", "base", "to", "symbols", "amount"].contains(name) {
            last[name] = value
        }
        var query = FrankfurterV1Query()
        if let text = last["amount"] {
            // Ruby's String#to_f: the leading number, 0 when there is none.
            let amount = RubyFloat.parse(text)
            // Bounded so that no amount times any rate, divided by any other, leaves the doubles.
            guard amount > 0, amount <= maxAmount else { throw .invalidAmount }
            query.amount = amount
        }
        query.base = (last["from"] ?? last["base"])?.uppercased()
        if let symbols = (last["to"] ?? last["symbols"])?.uppercased() {
            var parts = symbols.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            while parts.last?.isEmpty == true { parts.removeLast() }
            query.symbols = parts
        }
        return query
    }

    /// `bad currency pair` when `base` is given and is the only symbol (`?from=USD&to=USD`).
    public func checkPair() throws(FrankfurterV1Error) {
        if let base, symbols == [base] { throw .badCurrencyPair }
    }

    /// True when the answer is the data as published: no amount but 1, no other base, every currency.
    public func isPublished(base pivot: String) -> Bool {
        (amount ?? 1) == 1 && (base ?? pivot) == pivot && symbols == nil
    }
}

/// Why a Frankfurter v1 route answers an error, with Frankfurter's message and status.
public enum FrankfurterV1Error: Error, Sendable, Equatable {
    /// 404: no data for the query (an unknown currency, a day before the data, nothing left after the symbols).
    case notFound
    /// 422: an amount that is not a positive number.
    case invalidAmount
    /// 422: a date-shaped path that is no real day.
    case invalidDate
    /// 422: `base` is the only symbol.
    case badCurrencyPair

    /// The message Frankfurter writes.
    public var message: String {
        switch self {
        case .notFound: "not found"
        case .invalidAmount: "invalid amount"
        case .invalidDate: "invalid date"
        case .badCurrencyPair: "bad currency pair"
        }
    }

    /// The HTTP status code Frankfurter answers.
    public var statusCode: Int {
        self == .notFound ? 404 : 422
    }
}
