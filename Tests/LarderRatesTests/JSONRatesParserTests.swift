import Foundation
import LarderRates
import Testing

/// A Frankfurter-shaped body whose `rates` (or one extra top-level member) the tests vary.
enum JSONBody {
    static func frankfurter(rates: String = #"{"USD":1.0862,"JPY":162.41,"HUF":310.70}"#, extra: String = "") -> String {
        #"{"amount":1,"base":"EUR","date":"2026-11-20","rates":\#(rates)\#(extra.isEmpty ? "" : "," + extra)}"#
    }

    /// Puts `value` somewhere harmless, to exercise the JSON grammar itself.
    static func with(_ value: String) -> String {
        frankfurter(extra: #""extra":\#(value)"#)
    }
}

@Suite("JSON: Frankfurter and Open Exchange Rates")
struct JSONRatesParserTests {
    @Test func readsFrankfurter() throws {
        let set = try #require(try parse(JSONBody.frankfurter(), as: .json).latest)
        #expect(set.base == "EUR")
        #expect(set.date == RateDate("2026-11-20"))
        #expect(set.rates.map(\.code) == ["HUF", "JPY", "USD"])
        #expect(set.createdAt == nil && set.updatedAt == nil)
        let huf = try #require(set.rates.first)
        #expect(huf.value.text == "310.70")
        #expect(huf.value.value == Decimal(string: "310.7"))
    }

    @Test func readsOpenExchangeRatesShape() throws {
        let body = #"{"disclaimer":"x","license":"y","timestamp":1318321664,"base":"USD","rates":{"USD":1,"EUR":0.746770219,"VND":20833}}"#
        let set = try #require(try parse(body, as: .json).latest)
        #expect(set.base == "USD")
        #expect(set.date == RateDate("2011-10-11"))
        #expect(set.updatedAt == Date(timeIntervalSince1970: 1_318_321_664))
        #expect(set.rates.map(\.code) == ["EUR", "VND"])
        #expect(set.text(of: "VND") == "20833")
    }

    @Test(arguments: [
        ("2026-11-20T16:00:00Z", 1_795_190_400.0),
        ("2026-11-20T16:00:00.250Z", 1_795_190_400.25),
        ("2026-11-20T17:00:00+01:00", 1_795_190_400.0),
        ("2026-11-20T11:30:00-04:30", 1_795_190_400.0),
        ("2026-11-20t16:00:00z", 1_795_190_400.0),
    ])
    func honoursTimestamps(text: String, seconds: Double) throws {
        let body = JSONBody.frankfurter(extra: #""created_at":"2026-01-10T09:00:00Z","updated_at":"\#(text)""#)
        let set = try #require(try parse(body, as: .json).latest)
        #expect(set.createdAt == Date(timeIntervalSince1970: 1_768_035_600))
        let updated = try #require(set.updatedAt)
        #expect(abs(updated.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test func updatedAtOverridesTimestamp() throws {
        let body = #"{"timestamp":1318321664,"updated_at":"2011-10-11T08:30:00Z","base":"USD","rates":{"EUR":0.7}}"#
        let set = try #require(try parse(body, as: .json).latest)
        #expect(set.updatedAt == Date(timeIntervalSince1970: 1_318_321_800))
        #expect(set.date == RateDate("2011-10-11"))
    }

    @Test func nullTimestampsCountAsAbsent() throws {
        let set = try #require(try parse(JSONBody.frankfurter(extra: #""created_at":null,"updated_at":null"#), as: .json).latest)
        #expect(set.createdAt == nil && set.updatedAt == nil)
    }

    @Test(arguments: [
        #""\"\\\/\b\f\n\r\t\u00e9\u20AC\uD83D\uDE00""#, "[]", "{}", #"[1,-0.5,2e10,1E+2,0,-0,{"a":[true,false,null]}]"#,
        " \t\r\n 1 ", #""é€😀""#,
    ])
    func acceptsValidJSONElsewhere(value: String) throws {
        #expect(try parse(JSONBody.with(value), as: .json).latest?.rates.count == 3)
    }

    static let refused: [(String, String)] = [
        ("comma decimal in a string", JSONBody.frankfurter(rates: #"{"USD":"1,0862"}"#)),
        ("rate as a string", JSONBody.frankfurter(rates: #"{"USD":"1.0862"}"#)),
        ("rate null", JSONBody.frankfurter(rates: #"{"USD":null}"#)),
        ("rate negative", JSONBody.frankfurter(rates: #"{"USD":-1.0862}"#)),
        ("rate zero", JSONBody.frankfurter(rates: #"{"USD":0}"#)),
        ("rate 0.0", JSONBody.frankfurter(rates: #"{"USD":0.0}"#)),
        ("rate exponent", JSONBody.frankfurter(rates: #"{"USD":1e-5}"#)),
        ("rate capital exponent", JSONBody.frankfurter(rates: #"{"USD":1.5E2}"#)),
        ("rate object", JSONBody.frankfurter(rates: #"{"USD":{"rate":1.1}}"#)),
        ("rate with leading zero", JSONBody.frankfurter(rates: #"{"USD":01.1}"#)),
        ("rate with trailing dot", JSONBody.frankfurter(rates: #"{"USD":1.}"#)),
        ("duplicate currency", JSONBody.frankfurter(rates: #"{"USD":1.1,"JPY":160,"USD":1.2}"#)),
        ("lowercase code", JSONBody.frankfurter(rates: #"{"usd":1.1}"#)),
        ("empty rates", JSONBody.frankfurter(rates: "{}")),
        ("rates array", JSONBody.frankfurter(rates: #"[["USD",1.1]]"#)),
        ("base listed at 2", JSONBody.frankfurter(rates: #"{"EUR":2,"USD":1.1}"#)),
        ("only the base", JSONBody.frankfurter(rates: #"{"EUR":1}"#)),
        ("no rates", #"{"base":"EUR","date":"2026-11-20"}"#),
        ("no base", #"{"date":"2026-11-20","rates":{"USD":1.1}}"#),
        ("base not a code", #"{"base":"euro","date":"2026-11-20","rates":{"USD":1.1}}"#),
        ("base a number", #"{"base":1,"date":"2026-11-20","rates":{"USD":1.1}}"#),
        ("no date or timestamp", #"{"base":"EUR","rates":{"USD":1.1}}"#),
        ("bad date", #"{"base":"EUR","date":"2026-02-30","rates":{"USD":1.1}}"#),
        ("date with time", #"{"base":"EUR","date":"2026-11-20T00:00:00Z","rates":{"USD":1.1}}"#),
        ("date a number", #"{"base":"EUR","date":20261120,"rates":{"USD":1.1}}"#),
        ("negative timestamp", #"{"base":"USD","timestamp":-5,"rates":{"EUR":0.7}}"#),
        ("fractional timestamp", #"{"base":"USD","timestamp":1318321664.5,"rates":{"EUR":0.7}}"#),
        ("timestamp as string", #"{"base":"USD","timestamp":"1318321664","rates":{"EUR":0.7}}"#),
        ("timestamp past year 9999", #"{"base":"USD","timestamp":99999999999999,"rates":{"EUR":0.7}}"#),
        ("amount 100", JSONBody.frankfurter().replacingOccurrences(of: #""amount":1"#, with: #""amount":100"#)),
        ("amount string", JSONBody.frankfurter().replacingOccurrences(of: #""amount":1"#, with: #""amount":"1""#)),
        ("updated_at without zone", JSONBody.frankfurter(extra: #""updated_at":"2026-11-20T16:00:00""#)),
        ("updated_at date only", JSONBody.frankfurter(extra: #""updated_at":"2026-11-20""#)),
        ("updated_at invalid day", JSONBody.frankfurter(extra: #""updated_at":"2026-02-30T16:00:00Z""#)),
        ("updated_at hour 24", JSONBody.frankfurter(extra: #""updated_at":"2026-11-20T24:00:00Z""#)),
        ("updated_at with space", JSONBody.frankfurter(extra: #""updated_at":"2026-11-20 16:00:00Z""#)),
        ("updated_at a number", JSONBody.frankfurter(extra: #""updated_at":1795276800"#)),
        ("created_at garbage", JSONBody.frankfurter(extra: #""created_at":"yesterday""#)),
        ("bare string", #""EUR 1.0862""#),
        ("bare array", #"[{"base":"EUR","date":"2026-11-20","rates":{"USD":1.1}}]"#),
        ("bare number", "1.0862"),
        ("null", "null"),
        ("trailing garbage", JSONBody.frankfurter() + "x"),
        ("two documents", JSONBody.frankfurter() + JSONBody.frankfurter()),
        ("trailing comma in object", JSONBody.frankfurter(rates: #"{"USD":1.1,}"#)),
        ("trailing comma in array", JSONBody.with("[1,]")),
        ("duplicate top-level key", JSONBody.frankfurter(extra: #""base":"USD""#)),
        ("duplicate key deep down", JSONBody.with(#"{"a":{"b":1,"b":2}}"#)),
        ("deep nesting", JSONBody.with(String(repeating: "[", count: 40) + String(repeating: "]", count: 40))),
        ("very deep nesting", JSONBody.with(String(repeating: "[", count: 100_000))),
        ("truncated", String(JSONBody.frankfurter().dropLast(5))),
        ("single quotes", #"{'base':'EUR','date':'2026-11-20','rates':{'USD':1.1}}"#),
        ("unquoted key", #"{base:"EUR","date":"2026-11-20","rates":{"USD":1.1}}"#),
        ("comment", #"{"base":"EUR",/* c */"date":"2026-11-20","rates":{"USD":1.1}}"#),
        ("NaN", JSONBody.with("NaN")),
        ("plus sign", JSONBody.with("+1")),
        ("leading dot", JSONBody.with(".5")),
        ("hex number", JSONBody.with("0x10")),
        ("bad literal", JSONBody.with("tru")),
        ("bad escape", JSONBody.with(#""\x41""#)),
        ("short unicode escape", JSONBody.with(#""\u12""#)),
        ("lone high surrogate", JSONBody.with(#""\uD83D""#)),
        ("lone low surrogate", JSONBody.with(#""\uDE00""#)),
        ("high surrogate then non-surrogate", JSONBody.with(#""\uD83D\u0041""#)),
        ("raw newline in string", JSONBody.with("\"a\nb\"")),
        ("raw tab in string", JSONBody.with("\"a\tb\"")),
        ("NUL in string", JSONBody.with("\"a\u{0}b\"")),
        ("NUL after the document", JSONBody.frankfurter() + "\u{0}"),
        ("HTML error page", "<!DOCTYPE html><html><body><h1>500</h1></body></html>"),
        ("ECB XML", ECB.valid),
        ("pipe text", "USD|US dollar|1.0862"),
        ("empty", ""),
        ("whitespace only", "  \n"),
    ]

    @Test(arguments: refused)
    func refuses(name: String, body: String) {
        expectRefusal(name, body, as: .json)
    }

    @Test(arguments: [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
    func refusesInvalidUTF8(sequence: [UInt8]) {
        let body = Array(#"{"base":"EUR","date":"2026-11-20","note":""#.utf8) + sequence + Array(#"","rates":{"USD":1.1}}"#.utf8)
        #expect(refusal(body, as: .json) == "json: the body is not valid UTF-8")
    }

    @Test func messagesNameTheProblem() {
        #expect(refusal(JSONBody.frankfurter(rates: #"{"USD":"1.0862"}"#), as: .json)
            == #"json: "rates": rate for 'USD' is a string, not a number"#)
        #expect(refusal(JSONBody.frankfurter(rates: #"{"USD":1e-5}"#), as: .json)
            == #"json: "rates": rate '1e-5' for USD uses exponent notation, which is not accepted"#)
        #expect(refusal(#""EUR""#, as: .json) == "json: the body is a string, not an object")
        #expect(refusal(JSONBody.frankfurter(rates: #"{"USD":1,"USD":2}"#), as: .json)?.contains("duplicate key \"USD\"") == true)
        #expect(refusal(JSONBody.frankfurter() + " x", as: .json)?.contains("unexpected content after the JSON value") == true)
    }
}
