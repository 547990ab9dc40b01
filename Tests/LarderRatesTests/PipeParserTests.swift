import Foundation
import LarderRates
import Testing

@Suite("Pipe format CODE|Name|rate")
struct PipeParserTests {
    @Test func readsLinesDatedByTheFetchDay() throws {
        let set = try #require(try parse("USD|US dollar|1.0862\nHUF|Hungarian forint|310.70\n", as: .pipe).latest)
        #expect(set.base == "EUR")
        #expect(set.date == RateDate("2026-11-21"))
        #expect(set.createdAt == nil && set.updatedAt == nil)
        #expect(set.rates.map(\.code) == ["HUF", "USD"])
        let huf = try #require(set.rates.first)
        #expect(huf.name == "Hungarian forint")
        #expect(huf.value.text == "310.70")
        #expect(huf.value.value == Decimal(string: "310.7"))
    }

    @Test func usesTheUTCDayOfTheFetch() throws {
        // 2026-11-21T23:59:59Z is already the 22nd east of UTC; the date must not follow the local zone.
        let late = Date(timeIntervalSince1970: 1_795_305_599)
        let parsed = try RatesParser.parse(Array("USD|US dollar|1.1".utf8), format: .pipe, fetchedAt: late)
        #expect(parsed.latest?.date == RateDate("2026-11-21"))
    }

    @Test(arguments: [
        ("CRLF", "USD|US dollar|1.0862\r\nJPY|Japanese yen|162.41\r\n"),
        ("no trailing newline", "USD|US dollar|1.0862\nJPY|Japanese yen|162.41"),
        ("blank lines", "\nUSD|US dollar|1.0862\n\n  \t\nJPY|Japanese yen|162.41\n\n"),
        ("spaces around fields", "USD | US dollar | 1.0862\n JPY\t|\tJapanese yen|162.41 \n"),
        ("BOM", "\u{FEFF}USD|US dollar|1.0862\nJPY|Japanese yen|162.41\n"),
        ("non-ASCII name", "USD|Dollar des États-Unis|1.0862\nJPY|円|162.41\n"),
    ])
    func accepts(name: String, body: String) throws {
        let set = try #require(try parse(body, as: .pipe).latest, "\(name)")
        #expect(set.text(of: "USD") == "1.0862")
        #expect(set.text(of: "JPY") == "162.41")
        #expect(set.rates.count == 2)
    }

    static let refused: [(String, String)] = [
        ("comma decimal", "USD|US dollar|1,0862\n"),
        ("not a number", "USD|US dollar|abc\n"),
        ("negative", "USD|US dollar|-1.0862\n"),
        ("zero", "USD|US dollar|0\n"),
        ("exponent", "USD|US dollar|1e-5\n"),
        ("thousands separator", "IDR|Indonesian rupiah|15,210.73\n"),
        ("empty rate", "USD|US dollar|\n"),
        ("duplicate code", "USD|US dollar|1.0862\nJPY|Japanese yen|162.41\nUSD|US dollar|1.0863\n"),
        ("two fields", "USD|1.0862\n"),
        ("four fields", "USD|US dollar|1.0862|extra\n"),
        ("trailing pipe", "USD|US dollar|1.0862|\n"),
        ("empty name", "USD||1.0862\n"),
        ("blank name", "USD|   |1.0862\n"),
        ("lowercase code", "usd|US dollar|1.0862\n"),
        ("two-letter code", "US|US dollar|1.0862\n"),
        ("one bad line among good", "USD|US dollar|1.0862\nJPY|Japanese yen\nGBP|Pound sterling|0.84127\n"),
        ("comment line", "# ECB rates\nUSD|US dollar|1.0862\n"),
        ("header line", "code|name|rate\nUSD|US dollar|1.0862\n"),
        ("bare CR line ends", "USD|US dollar|1.0862\rJPY|Japanese yen|162.41\r"),
        ("NUL in a name", "USD|US\u{0}dollar|1.0862\n"),
        ("control character in a name", "USD|US\u{1B}[31mdollar|1.0862\n"),
        ("base listed at 2", "EUR|Euro|2\nUSD|US dollar|1.0862\n"),
        ("only the base", "EUR|Euro|1\n"),
        ("HTML error page", "<!DOCTYPE html>\n<html><body><h1>503 Service Unavailable</h1></body></html>\n"),
        ("plain text error", "Service temporarily unavailable\n"),
        ("JSON", #"{"base":"EUR","date":"2026-11-20","rates":{"USD":1.0862}}"#),
        ("empty", ""),
        ("only newlines", "\n\r\n\n"),
    ]

    @Test(arguments: refused)
    func refuses(name: String, body: String) {
        expectRefusal(name, body, as: .pipe)
    }

    @Test func refusesInvalidUTF8() {
        let body = Array("USD|US dollar|1.0862\nJPY|Japanese ".utf8) + [0xFF, 0xFE] + Array("|162.41\n".utf8)
        #expect(refusal(body, as: .pipe) == "pipe: the body is not valid UTF-8")
    }

    @Test func messagesNameTheLine() {
        #expect(refusal("USD|US dollar|1.0862\nJPY|Japanese yen|162,41\n", as: .pipe)
            == "pipe: line 2: rate '162,41' for JPY uses a decimal comma")
        #expect(refusal("USD|US dollar|1.0862\r\n\r\nUSD|US dollar|1.0862\r\n", as: .pipe)
            == "pipe: line 3: duplicate currency USD")
        #expect(refusal("<html>\n", as: .pipe) == "pipe: line 1: expected CODE|Name|rate, found 1 field(s) in '<html>'")
    }
}
