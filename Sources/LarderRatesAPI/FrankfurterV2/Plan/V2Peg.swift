import LarderRates

/// A fixed peg Frankfurter v2 derives a currency from (its `db/seeds/pegs`): `quote` is `rate` units of `base` since `since`.
public struct V2Peg: Sendable {
    public let quote: String
    public let base: String
    public let rate: Double
    /// The first day (day number) the peg holds.
    public let since: Int

    init(_ peg: CurrencyPeg) {
        quote = peg.quote
        base = peg.base
        // The table's literal parses to the same double as the Ruby seed's.
        rate = Double(peg.rate) ?? 1
        since = peg.since.dayNumber
    }

    /// Frankfurter's 21 pegs, in its order (by code): `CurrencyPeg`'s table, for computing.
    public static let all: [V2Peg] = CurrencyPeg.all.map(V2Peg.init)

    /// The peg of `quote`, if it is pegged.
    public static func find(_ quote: String) -> V2Peg? {
        all.first { $0.quote == quote }
    }
}
