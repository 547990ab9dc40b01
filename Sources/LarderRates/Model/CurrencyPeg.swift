/// A currency held at a fixed rate to another by its monetary authority (BMD at 1 USD), as
/// Frankfurter v2 lists it: such a currency is answered wherever its anchor is.
public struct CurrencyPeg: Sendable, Hashable {
    /// The pegged currency: `BMD`.
    public let quote: String
    /// The anchor: `USD`.
    public let base: String
    /// Units of `quote` per unit of `base`, as a JSON number literal (`1.0`, `3.6725`), the digits Frankfurter writes.
    public let rate: String
    /// The day the peg began.
    public let since: RateDate
    public let authority: String
    /// The authority's page stating the peg.
    public let source: String

    init(quote: String, base: String, rate: String, since: StaticString, authority: String, source: String) {
        self.quote = quote
        self.base = base
        self.rate = rate
        // The table is literal and checked by a test: every date in it parses.
        self.since = RateDate("\(since)") ?? .firstDay
        self.authority = authority
        self.source = source
    }

    /// The peg of a pegged code, or nil.
    public static func of(_ code: String) -> CurrencyPeg? {
        all.first { $0.quote == code }
    }
}
