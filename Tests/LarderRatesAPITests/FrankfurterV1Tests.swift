import LarderRates
import LarderRatesAPI
import Testing

@Suite("Frankfurter v1's query and conversion, as its own code reads and computes them")
struct FrankfurterV1Tests {
    static let day = RateSet(
        date: RateDate("2026-12-29")!, base: "EUR",
        rates: [("USD", "1.0570"), ("GBP", "0.8470"), ("JPY", "160.80")].map {
            CurrencyRate(code: $0.0, value: PublishedDecimal($0.1)!)
        })

    static func query(_ items: [(String, String)]) throws(FrankfurterV1Error) -> FrankfurterV1Query {
        try FrankfurterV1Query.parse(items.map { (name: $0.0, value: $0.1) })
    }

    /// What Ruby's `String#to_f` gives for each text (checked with Ruby 3.1).
    @Test(arguments: [
        ("10abc", 10.0), (" 5", 5.0), ("1_000", 1000.0), ("1__0", 1.0), (".5", 0.5), ("5.", 5.0), ("1e3", 1000.0),
        ("1e", 1.0), ("1.5e-2x", 0.015), ("+3", 3.0), ("1_000.5_5", 1000.55),
    ])
    func amountsReadAsRubysToF(text: String, value: Double) throws {
        #expect(try Self.query([("amount", text)]).amount == value)
    }

    @Test(arguments: ["abc", "0x10", "_1", "-5", "0", "Infinity", "1e400", "", "1e251"])
    func amountsThatAreNoPositiveNumberAreInvalid(text: String) {
        #expect(throws: FrankfurterV1Error.invalidAmount) { try Self.query([("amount", text)]) }
    }

    @Test func fromAndToWinTheLastValueCountsAndOtherNamesAreIgnored() throws {
        let query = try Self.query([("base", "gbp"), ("from", "usd"), ("symbols", "EUR"), ("to", "jpy,,gbp,,"),
                                    ("amount", "1"), ("amount", "2"), ("callback", "x")])
        #expect(query.base == "USD" && query.amount == 2)
        #expect(query.symbols == ["JPY", "", "GBP"], "Ruby's split drops trailing empty parts only")
        #expect(throws: FrankfurterV1Error.badCurrencyPair) { try Self.query([("from", "usd"), ("to", "USD")]).checkPair() }
        // Without a base the pair is not checked: Frankfurter compares with the base as given.
        try Self.query([("symbols", "EUR")]).checkPair()
    }

    @Test func conversionsFollowFrankfurtersSteps() throws {
        func lines(_ items: [(String, String)]) throws -> String? {
            try FrankfurterV1Rates.lines(for: Self.day, query: Self.query(items))
                .map { $0.map { "\($0.code)=\($0.number)" }.joined(separator: " ") }
        }
        // Published digits without arithmetic; by magnitude once there is some (Ruby's own results).
        #expect(try lines([("symbols", "USD,JPY")]) == "JPY=160.80 USD=1.0570")
        #expect(try lines([("amount", "2")]) == "GBP=1.694 JPY=321.6 USD=2.114")
        #expect(try lines([("base", "USD"), ("symbols", "GBP,JPY")]) == "GBP=0.80132 JPY=152.13")
        #expect(try lines([("amount", "100"), ("base", "USD"), ("symbols", "GBP")]) == "GBP=80.13")
        #expect(try lines([("base", "USD"), ("symbols", "EUR")]) == "EUR=0.94607")
        // Nothing left: an unknown base, unknown symbols, the base as its own only symbol.
        #expect(try lines([("base", "XXX")]) == nil)
        #expect(try lines([("symbols", "XXX,EUR")]) == nil)
        #expect(try lines([("base", "USD"), ("symbols", "USD,USD")]) == nil)
        // The base's value rounds to 0: nothing to divide by.
        #expect(throws: FrankfurterV1Error.invalidAmount) { try lines([("amount", "1e-9"), ("base", "USD")]) }
        #expect(try lines([("amount", "1e-9"), ("symbols", "USD")]) == "USD=0.0", "Frankfurter's 0.0")
        // A product past the doubles has no JSON number: refused, never written as `inf`.
        #expect(throws: FrankfurterV1Error.invalidAmount) { try lines([("amount", "1e250"), ("base", "USD")]) }
    }
}
