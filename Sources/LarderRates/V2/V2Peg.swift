/// A fixed peg Frankfurter v2 derives a currency from (its `db/seeds/pegs`): `quote` is `rate` units of `base` since `since`.
public struct V2Peg: Sendable {
    public let quote: String
    public let base: String
    public let rate: Double
    /// The first day (day number) the peg holds.
    public let since: Int

    init(_ quote: String, _ base: String, _ rate: Double, since: String) {
        self.quote = quote
        self.base = base
        self.rate = rate
        self.since = RateDate(since)!.dayNumber
    }

    /// Frankfurter's 21 pegs, in its order (by code).
    public static let all: [V2Peg] = [
        V2Peg("AED", "USD", 3.6725, since: "1997-11-02"),
        V2Peg("ANG", "USD", 1.79, since: "1971-12-18"),
        V2Peg("BAM", "EUR", 1.95583, since: "1997-08-11"),
        V2Peg("BHD", "USD", 0.376, since: "2001-01-01"),
        V2Peg("BMD", "USD", 1.0, since: "1972-02-06"),
        V2Peg("BND", "SGD", 1.0, since: "1967-06-12"),
        V2Peg("BTN", "INR", 1.0, since: "1974-01-01"),
        V2Peg("CVE", "EUR", 110.265, since: "1999-01-01"),
        V2Peg("FKP", "GBP", 1.0, since: "1966-02-14"),
        V2Peg("GGP", "GBP", 1.0, since: "1921-01-01"),
        V2Peg("IMP", "GBP", 1.0, since: "1840-01-01"),
        V2Peg("JEP", "GBP", 1.0, since: "1834-01-01"),
        V2Peg("JOD", "USD", 0.709, since: "1995-10-23"),
        V2Peg("MOP", "HKD", 1.03, since: "1983-01-01"),
        V2Peg("OMR", "USD", 0.3845, since: "1986-01-01"),
        V2Peg("QAR", "USD", 3.64, since: "2001-07-09"),
        V2Peg("SAR", "USD", 3.75, since: "1986-06-01"),
        V2Peg("SHP", "GBP", 1.0, since: "1976-02-02"),
        V2Peg("TMT", "USD", 3.5, since: "2015-01-01"),
        V2Peg("XAF", "EUR", 655.957, since: "1999-01-01"),
        V2Peg("XOF", "EUR", 655.957, since: "1999-01-01"),
    ]

    /// The peg of `quote`, if it is pegged.
    public static func find(_ quote: String) -> V2Peg? {
        all.first { $0.quote == quote }
    }
}
