import Foundation
import LarderRates
import Testing

/// Bodies shaped as the ECB data API's `format=csvdata` answer for `EXR/D..EUR.SP00.A`.
enum SDMXBody {
    static let header = "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,TITLE_COMPL,UNIT_MULT"

    static func row(_ currency: String, _ day: String, _ value: String, freq: String = "D", denom: String = "EUR", type: String = "SP00") -> String {
        "EXR.\(freq).\(currency).\(denom).\(type).A,\(freq),\(currency),\(denom),\(type),A,\(day),\(value),A,F,"
            + "\"ECB reference exchange rate, \(currency)/Euro, 2:15 pm (C.E.T.)\",0"
    }

    static func body(_ rows: [String], newline: String = "\r\n") -> String {
        ([header] + rows).joined(separator: newline) + newline
    }

    static let valid = body([
        row("USD", "2014-06-12", "1.3545"), row("JPY", "2014-06-12", "138.33"),
        row("USD", "2014-06-13", "1.3535"), row("JPY", "2014-06-13", "138.14"),
    ])
}

@Suite("ECB data API CSV (ecb-sdmx)")
struct ECBSDMXParserTests {
    @Test func readsOneEuroSetPerDayKeepingThePublishedDigits() throws {
        let parsed = try parse(SDMXBody.valid, as: .ecbSDMX)
        #expect(parsed.format == .ecbSDMX)
        #expect(parsed.sets.map(\.date.description) == ["2014-06-12", "2014-06-13"])
        let newest = try #require(parsed.latest)
        #expect(newest.base == "EUR")
        #expect(newest.rates.map(\.code) == ["JPY", "USD"])
        #expect(newest.text(of: "USD") == "1.3535")
        #expect(newest.updatedAt == RateDate("2014-06-13")?.startInstant)
    }

    @Test func columnsAreFoundByNameInAnyOrderAndLineFeedsWork() throws {
        let body = "OBS_VALUE,TIME_PERIOD,CURRENCY_DENOM,CURRENCY,FREQ\n1.6168,1999-01-04,EUR,CHF,D\n"
        let set = try #require(try parse(body, as: .ecbSDMX).latest)
        #expect(set.date == RateDate("1999-01-04") && set.text(of: "CHF") == "1.6168")
    }

    @Test func otherSeriesAndMissingObservationsAreSkipped() throws {
        let body = SDMXBody.body([
            SDMXBody.row("USD", "2014-06-13", "1.3535"),
            SDMXBody.row("USD", "2014-06", "1.36", freq: "M"),
            SDMXBody.row("USD", "2014-06-13", "1.2", denom: "USD"),
            SDMXBody.row("USD", "2014-06-13", "1.3", type: "EN00"),
            SDMXBody.row("GBP", "2014-06-13", "NaN"),
            SDMXBody.row("CHF", "2014-06-13", ""),
        ])
        let parsed = try parse(body, as: .ecbSDMX)
        #expect(parsed.sets.count == 1)
        #expect(parsed.latest?.rates.map(\.code) == ["USD"])
    }

    @Test func aHeaderOnlyAnswerHoldsNoDay() throws {
        let body = Array(SDMXBody.body([]).utf8)
        #expect(refusal(body, as: .ecbSDMX) == "ecb-sdmx: no rates")
        let parsed = try RatesParser.parse(body, format: .ecbSDMX, fetchedAt: fetchInstant, allowingNoDays: true)
        #expect(parsed.sets.isEmpty)
    }

    @Test(arguments: [
        (SDMXBody.body([SDMXBody.row("USD", "2014-06-13", "\"1,3535\"")]), "ecb-sdmx: line 2: 2014-06-13: rate '1,3535' for USD uses a decimal comma"),
        (SDMXBody.body([SDMXBody.row("USD", "2014-06-13", "1.3e0")]), "ecb-sdmx: line 2: 2014-06-13: rate '1.3e0' for USD uses exponent notation, which is not accepted"),
        (SDMXBody.body([SDMXBody.row("USD", "2014-06-13", "1.3535"), SDMXBody.row("USD", "2014-06-13", "1.3536")]),
         "ecb-sdmx: line 3: 2014-06-13: duplicate currency USD"),
        (SDMXBody.body([SDMXBody.row("USD", "13/06/2014", "1.3535")]), "ecb-sdmx: line 2: TIME_PERIOD '13/06/2014' is not a YYYY-MM-DD day"),
        ("FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\nD,USD,2014-06-13,1.3535\n", "ecb-sdmx: the header lacks CURRENCY_DENOM (not the ECB's csvdata?)"),
        ("FREQ,CURRENCY,CURRENCY_DENOM,TIME_PERIOD,OBS_VALUE\nD,USD,EUR,2014-06-13\n", "ecb-sdmx: line 2: 4 field(s) where the header has 5"),
        (SDMXBody.header + "\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2014-06-13,1.3535,A,F,\"cut short", "ecb-sdmx: line 2: a quoted field is never closed (truncated?)"),
        (SDMXBody.header + "\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2014-06-13,1.3535,A,F,a\"b,0\n", "ecb-sdmx: line 2: a double quote inside an unquoted field"),
        ("{\"rates\":{}}", "ecb-sdmx: line 1: a double quote inside an unquoted field"),
        ("FREQ,FREQ,CURRENCY\n", "ecb-sdmx: line 1: the column FREQ appears twice"),
    ])
    func refusesTheWholePayload(body: String, message: String) {
        #expect(refusal(body, as: .ecbSDMX) == message)
    }

    @Test func quotedFieldsMayHoldCommasQuotesAndLineBreaks() throws {
        let body = "FREQ,TITLE,CURRENCY,CURRENCY_DENOM,TIME_PERIOD,OBS_VALUE\r\n"
            + "D,\"a, \"\"quoted\"\"\r\ntitle\",USD,EUR,2014-06-13,1.3535\r\n"
        #expect(try parse(body, as: .ecbSDMX).latest?.text(of: "USD") == "1.3535")
    }

    @Test func autoDetectsTheCSVByItsHeader() throws {
        #expect(RatesParser.detectedFormat(of: Array(SDMXBody.valid.utf8)) == .ecbSDMX)
        #expect(RatesParser.detectedFormat(of: Array("FREQ,CURRENCY\n".utf8)) == .ecbSDMX)
        #expect(try parse(SDMXBody.valid).format == .ecbSDMX)
    }
}
