import LarderRates
import Testing

@Suite("ISO 4217 currencies: the money gem's table as Frankfurter patches it")
struct ISOCurrencyTests {
    @Test func namesCodesNumbersAndSymbols() throws {
        let dollar = try #require(ISOCurrency.named("USD"))
        #expect(dollar == ISOCurrency.all.first { $0.code == "USD" })
        #expect(dollar.name == "United States Dollar")
        #expect(dollar.numericCode == "840")
        #expect(dollar.symbol == "$")
        // Leading zeros are the table's: the numeric code is text, not a number.
        #expect(ISOCurrency.named("ALL")?.numericCode == "008")
        // Frankfurter's names, not the gem's spelling of the acronym ("Central African Cfa Franc").
        #expect(ISOCurrency.named("XAF")?.name == "Central African CFA Franc")
        // Codes the gem lacks that old ECB days quote, added by the same patches.
        #expect(ISOCurrency.named("CYP")?.name == "Cyprus Pound")
        // A currency without a symbol in the table has none here either.
        #expect(ISOCurrency.named("XTS")?.symbol == nil)
    }

    @Test func lookupIsByUpperCaseCodeOnly() {
        #expect(ISOCurrency.named("usd") == nil)
        #expect(ISOCurrency.named("ZZZ") == nil)
        #expect(ISOCurrency.named("") == nil)
    }

    @Test func allIsSortedByCodeWithoutRepeats() {
        let codes = ISOCurrency.all.map(\.code)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        #expect(codes.count > 150)
        #expect(codes.allSatisfy { $0.utf8.count == 3 && $0.uppercased() == $0 })
    }

    @Test(arguments: ["AUD", "BGN", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "IDR",
                      "ILS", "INR", "ISK", "JPY", "KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SEK",
                      "SGD", "THB", "TRY", "USD", "ZAR"])
    func everyCurrencyTheECBQuotesHasAName(code: String) {
        #expect(ISOCurrency.named(code)?.name.isEmpty == false)
    }
}
