import Foundation
import LarderRates
import Testing

@Suite("Rates: the in-memory history (stored objects, merges, lookups)")
struct RatesHistoryTests {
    static func set(_ date: String, _ rates: [(String, String)], base: String = "EUR") -> RateSet {
        RateSet(
            date: RateDate(date)!, base: base,
            rates: rates.map { CurrencyRate(code: $0.0, value: PublishedDecimal($0.1)!) })
    }

    static let stored = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func objectsRoundTripWithTheirPublishedDigits() throws {
        let set = Self.set("2026-11-20", [("USD", "1.0862"), ("HUF", "310.70"), ("JPY", "162.41")])
        let object = RatesObjectReader.object(for: set)
        #expect(String(decoding: object, as: UTF8.self) == #"{"HUF":310.70,"JPY":162.41,"USD":1.0862}"#)
        let rates = try #require(RatesObjectReader.rates(object[...]))
        #expect(rates.map(\.code) == ["HUF", "JPY", "USD"])
        #expect(rates.map(\.value.text) == ["310.70", "162.41", "1.0862"])
        #expect(RatesObjectReader.rates(Array("{}".utf8)[...])?.isEmpty == true)
    }

    @Test(arguments: [#"{"USD":1.0862"#, #"{"USD":1,0862}"#, #"{"usd":1.0862}"#, #"{"USD":-1}"#, #"{"USD":1.0}x"#, "", "[]",
                      #"{"USDX":1}"#, #"{"USD":}"#])
    func aDamagedObjectIsRefused(text: String) {
        #expect(RatesObjectReader.rates(Array(text.utf8)[...]) == nil)
    }

    @Test func mergesKeepDaysAscendingAndReplaceTheSameDate() throws {
        let history = RatesHistory().merging(
            [Self.set("2026-11-18", [("USD", "1.01")]), Self.set("2026-11-20", [("USD", "1.03")])], storedAt: Self.stored)
        let later = Self.stored + 60
        let merged = history.merging(
            [Self.set("2026-11-19", [("USD", "1.02")]), Self.set("2026-11-20", [("USD", "1.04")]),
             Self.set("2026-11-23", [("USD", "1.05")])], storedAt: later)
        #expect(merged.days.map(\.date.description) == ["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-23"])
        #expect(merged.days.map(\.storedAt) == [Self.stored, later, later, later])
        #expect(String(decoding: merged.object(at: 2), as: UTF8.self) == #"{"USD":1.04}"#)
        #expect(try #require(merged.set(at: 0)).rates.first?.value.text == "1.01")
        #expect(merged.hasOneBase)
        #expect(!merged.merging([Self.set("2026-11-24", [("EUR", "0.9")], base: "USD")], storedAt: later).hasOneBase)
    }

    @Test func lookupsFindTheDayOrTheLatestBefore() {
        let history = RatesHistory().merging(
            ["2026-11-18", "2026-11-20", "2026-11-23"].map { Self.set($0, [("USD", "1.1")]) }, storedAt: Self.stored)
        #expect(history.index(onOrBefore: RateDate("2026-11-17")!) == nil)
        #expect(history.index(onOrBefore: RateDate("2026-11-18")!) == 0)
        #expect(history.index(onOrBefore: RateDate("2026-11-19")!) == 0)
        #expect(history.index(onOrBefore: RateDate("2026-11-22")!) == 1)
        #expect(history.index(onOrBefore: RateDate("2030-01-01")!) == 2)
        #expect(RatesHistory().index(onOrBefore: RateDate("2026-11-20")!) == nil)
    }
}
