import Foundation
import LarderRates
import Testing

@Suite("Frankfurter v1 answers (frankfurter)")
struct FrankfurterParserTests {
    static let series = #"{"amount":1.0,"base":"EUR","start_date":"2014-06-12","end_date":"2014-06-13","rates":{"2014-06-12":{"JPY":138.33,"USD":1.3545},"2014-06-13":{"JPY":138.14,"USD":1.3530}}}"#

    @Test func readsATimeSeriesDayByDayKeepingDigits() throws {
        let parsed = try parse(Self.series, as: .frankfurter)
        #expect(parsed.format == .frankfurter)
        #expect(parsed.sets.map(\.date.description) == ["2014-06-12", "2014-06-13"])
        let newest = try #require(parsed.latest)
        #expect(newest.base == "EUR" && newest.text(of: "USD") == "1.3530")
        #expect(newest.createdAt == nil && newest.updatedAt == nil)
    }

    @Test func readsASingleDayAndTakesTheBaseFromThePayload() throws {
        let set = try #require(try parse(#"{"amount":1.0,"base":"USD","date":"2014-06-13","rates":{"EUR":0.73883}}"#, as: .frankfurter).latest)
        #expect(set.base == "USD" && set.date == RateDate("2014-06-13") && set.text(of: "EUR") == "0.73883")
    }

    @Test func anEmptySeriesHoldsNoDay() throws {
        let body = Array(#"{"amount":1.0,"base":"EUR","start_date":"2014-06-16","end_date":"2014-06-16","rates":{}}"#.utf8)
        #expect(refusal(body, as: .frankfurter) == "frankfurter: no rates")
        #expect(try RatesParser.parse(body, format: .frankfurter, fetchedAt: fetchInstant, allowingNoDays: true).sets.isEmpty)
    }

    @Test(arguments: [
        (#"{"amount":2,"base":"EUR","date":"2014-06-13","rates":{"USD":1.3}}"#, "frankfurter: \"amount\" must be 1"),
        (#"{"amount":1,"base":"EUR","date":"2014-06-13","rates":{"USD":1e0}}"#, "frankfurter: 2014-06-13: rate '1e0' for USD uses exponent notation, which is not accepted"),
        (#"{"amount":1,"base":"EUR","date":"2014-06-13","rates":{"USD":"1.3"}}"#, "frankfurter: 2014-06-13: rate for 'USD' is a string, not a number"),
        (#"{"amount":1,"base":"EUR","start_date":"2014-06-12","end_date":"2014-06-12","rates":{"2014-06-13":{"USD":1.3}}}"#,
         "frankfurter: the day 2014-06-13 is outside start_date..end_date"),
        (#"{"amount":1,"base":"EUR","start_date":"2014-06-12","end_date":"2014-06-13","rates":{"13.06.2014":{"USD":1.3}}}"#,
         "frankfurter: \"rates\" key '13.06.2014' is not a YYYY-MM-DD day"),
        (#"{"amount":1,"base":"EUR","start_date":"2014-06-13","end_date":"2014-06-12","rates":{}}"#, "frankfurter: start_date 2014-06-13 is after end_date 2014-06-12"),
        (#"{"amount":1,"base":"EUR","rates":{"USD":1.3}}"#, "frankfurter: neither \"start_date\" nor \"date\" dates the rates"),
        (#"{"amount":1,"base":"eur","date":"2014-06-13","rates":{"USD":1.3}}"#, "frankfurter: base 'eur' is not three uppercase letters"),
    ])
    func refusesTheWholePayload(body: String, message: String) {
        #expect(refusal(body, as: .frankfurter) == message)
    }

    @Test func autoTellsATimeSeriesFromOneDay() throws {
        #expect(RatesParser.detectedFormat(of: Array(Self.series.utf8)) == .frankfurter)
        #expect(RatesParser.detectedFormat(of: Array(JSONBody.frankfurter().utf8)) == .json)
        #expect(try parse(Self.series).sets.count == 2)
    }
}
