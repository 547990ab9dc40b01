import Foundation
import LarderRates
import Testing

/// Builds an ECB document around `cubes` (the content of the outer Cube), or around `body` entirely.
enum ECB {
    static let gesmes = "http://www.gesmes.org/xml/2002-08-01"
    static let eurofxref = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"

    static func document(_ cubes: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gesmes:Envelope xmlns:gesmes="\(gesmes)" xmlns="\(eurofxref)">
        \t<gesmes:subject>Reference rates</gesmes:subject>
        \t<Cube>
        \(cubes)
        \t</Cube>
        </gesmes:Envelope>
        """
    }

    static func day(_ time: String, _ rates: [(String, String)]) -> String {
        "<Cube time='\(time)'>" + rates.map { "<Cube currency='\($0.0)' rate='\($0.1)'/>" }.joined() + "</Cube>"
    }

    static let valid = document(day("2026-11-20", [("USD", "1.0862"), ("JPY", "162.41"), ("HUF", "310.70")]))
}

@Suite("ECB eurofxref XML")
struct ECBParserTests {
    @Test func readsOneDay() throws {
        let set = try #require(try parse(ECB.valid, as: .ecb).latest)
        #expect(set.date == RateDate("2026-11-20"))
        #expect(set.base == "EUR")
        #expect(set.rates.map(\.code) == ["HUF", "JPY", "USD"])
        #expect(set.updatedAt == RateDate("2026-11-20")?.startInstant)
        #expect(set.createdAt == nil)
        #expect(set.rates.allSatisfy { $0.name == nil })
    }

    @Test func keepsPublishedDigits() throws {
        let set = try #require(try parse(ECB.valid, as: .ecb).latest)
        let huf = try #require(set.rates.first { $0.code == "HUF" })
        #expect(huf.value.text == "310.70")
        #expect(huf.value.value == Decimal(string: "310.7"))
    }

    @Test func readsSeveralDaysOldestFirst() throws {
        let body = ECB.document(
            ECB.day("2026-11-20", [("USD", "1.1")]) + ECB.day("2026-11-19", [("USD", "1.2")])
                + ECB.day("2026-11-18", [("USD", "1.3")])
        )
        let parsed = try parse(body, as: .ecb)
        #expect(parsed.sets.map(\.date.description) == ["2026-11-18", "2026-11-19", "2026-11-20"])
        #expect(parsed.sets.map { $0.text(of: "USD") } == ["1.3", "1.2", "1.1"])
    }

    @Test func matchesByNamespaceNotPrefix() throws {
        let body = """
            <e:Envelope xmlns:e="\(ECB.gesmes)" xmlns:x="\(ECB.eurofxref)"><x:Cube><x:Cube time="2026-11-20">\
            <x:Cube currency="USD" rate="1.0862"/></x:Cube></x:Cube></e:Envelope>
            """
        #expect(try parse(body, as: .ecb).latest?.text(of: "USD") == "1.0862")
    }

    @Test func acceptsBOMAndComments() throws {
        let commented = ECB.valid.replacingOccurrences(of: "?>", with: "?>\n<!-- published daily -->")
        let body = [0xEF, 0xBB, 0xBF] + Array(commented.utf8)
        #expect(try RatesParser.parse(body, format: .auto, fetchedAt: fetchInstant).latest?.rates.count == 3)
    }

    static let refused: [(String, String)] = [
        ("comma decimal", ECB.document(ECB.day("2026-11-20", [("USD", "1,0862")]))),
        ("not a number", ECB.document(ECB.day("2026-11-20", [("USD", "abc")]))),
        ("negative", ECB.document(ECB.day("2026-11-20", [("USD", "-1.0862")]))),
        ("zero", ECB.document(ECB.day("2026-11-20", [("USD", "0.0000")]))),
        ("exponent", ECB.document(ECB.day("2026-11-20", [("USD", "1e-5")]))),
        ("empty rate", ECB.document(ECB.day("2026-11-20", [("USD", "")]))),
        ("spaces in rate", ECB.document(ECB.day("2026-11-20", [("USD", " 1.0862")]))),
        ("duplicate currency", ECB.document(ECB.day("2026-11-20", [("USD", "1.1"), ("JPY", "160"), ("USD", "1.2")]))),
        ("lowercase code", ECB.document(ECB.day("2026-11-20", [("usd", "1.1")]))),
        ("four-letter code", ECB.document(ECB.day("2026-11-20", [("USDX", "1.1")]))),
        ("base listed at 2", ECB.document(ECB.day("2026-11-20", [("EUR", "2"), ("USD", "1.1")]))),
        ("duplicate day", ECB.document(ECB.day("2026-11-20", [("USD", "1.1")]) + ECB.day("2026-11-20", [("USD", "1.1")]))),
        ("day without rates", ECB.document(ECB.day("2026-11-20", [("USD", "1.1")]) + "<Cube time='2026-11-19'></Cube>")),
        ("no day at all", ECB.document("")),
        ("invalid date", ECB.document(ECB.day("2026-02-30", [("USD", "1.1")]))),
        ("date with time", ECB.document(ECB.day("2026-11-20T00:00:00", [("USD", "1.1")]))),
        ("day without time", ECB.document("<Cube><Cube currency='USD' rate='1.1'/></Cube>")),
        ("rate without rate attribute", ECB.document("<Cube time='2026-11-20'><Cube currency='USD'/></Cube>")),
        ("rate without currency", ECB.document("<Cube time='2026-11-20'><Cube rate='1.1'/></Cube>")),
        ("Cube nested too deep", ECB.document("<Cube time='2026-11-20'><Cube currency='USD' rate='1.1'><Cube/></Cube></Cube>")),
        ("text in a Cube", ECB.document("<Cube time='2026-11-20'>USD 1.1<Cube currency='USD' rate='1.1'/></Cube>")),
        ("foreign element in a Cube", ECB.document("<Cube time='2026-11-20'><rate currency='USD' rate='1.1'/></Cube>")),
        ("mismatched tags", ECB.document("<Cube time='2026-11-20'><Cube currency='USD' rate='1.1'></Cube>")),
        ("mismatched end tag name", ECB.valid.replacingOccurrences(of: "</gesmes:Envelope>", with: "</gesmes:Envelopes>")),
        ("truncated mid-document", String(ECB.valid.prefix(ECB.valid.count / 2))),
        ("truncated inside a tag", String(ECB.valid.prefix { $0 != "/" }) + "/"),
        ("crossing end tags", ECB.document("<Cube time='2026-11-20'><Cube currency='USD' rate='1.1'/></gesmes:subject></Cube>")),
        ("Envelope closed inside Cube", ECB.valid.replacingOccurrences(of: "\t</Cube>\n</gesmes:Envelope>", with: "</gesmes:Envelope></Cube>")),
        ("undeclared entity", ECB.document(ECB.day("2026-11-20", [("&foo;", "1.1")]))),
        ("truncated right after a rate Cube",
         String(ECB.valid[..<ECB.valid.range(of: "rate='1.0862'/>")!.upperBound])),
        ("truncated after a complete day",
         String(ECB.valid[..<ECB.valid.range(of: "</Cube>")!.upperBound])),
        ("truncated before the Envelope closes",
         String(ECB.valid[..<ECB.valid.range(of: "</gesmes:Envelope>")!.lowerBound])),
        ("right prefix, wrong namespace",
         ECB.valid.replacingOccurrences(of: ECB.gesmes, with: "http://www.gesmes.org/xml/2002-08-02")),
        ("Cube in no namespace",
         ECB.valid.replacingOccurrences(of: " xmlns=\"\(ECB.eurofxref)\"", with: "")),
        ("Cube in a wrong default namespace",
         ECB.valid.replacingOccurrences(of: ECB.eurofxref, with: "http://example.com/eurofxref")),
        ("wrong root element", "<rates><Cube time='2026-11-20'><Cube currency='USD' rate='1.1'/></Cube></rates>"),
        ("second root element", ECB.valid + "<gesmes:Envelope xmlns:gesmes='\(ECB.gesmes)'/>"),
        ("trailing text", ECB.valid + "garbage"),
        ("DOCTYPE", "<?xml version='1.0'?><!DOCTYPE gesmes:Envelope SYSTEM 'file:///etc/passwd'>" + ECB.valid.drop { $0 != "\n" }),
        ("billion laughs", """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <gesmes:Envelope xmlns:gesmes="\(ECB.gesmes)" xmlns="\(ECB.eurofxref)"><Cube><Cube time="2026-11-20">\
            <Cube currency="USD" rate="1.1"/><Cube currency="&lol3;" rate="1.2"/></Cube></Cube></gesmes:Envelope>
            """),
        ("external entity", """
            <!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <gesmes:Envelope xmlns:gesmes="\(ECB.gesmes)" xmlns="\(ECB.eurofxref)"><Cube><Cube time="2026-11-20">\
            <Cube currency="USD" rate="&xxe;"/></Cube></Cube></gesmes:Envelope>
            """),
        ("UTF-16 declared", ECB.valid.replacingOccurrences(of: "UTF-8", with: "UTF-16")),
        ("HTML error page", "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>"),
        ("HTML without DOCTYPE", "<html><body><p>Service unavailable</p></body></html>"),
        ("not XML at all", "USD|US dollar|1.0862"),
        ("JSON", #"{"base":"EUR","date":"2026-11-20","rates":{"USD":1.0862}}"#),
        ("empty", ""),
        ("whitespace only", " \n\t\n"),
        ("NUL byte", ECB.valid.replacingOccurrences(of: "Reference rates", with: "Reference\u{0}rates")),
    ]

    @Test(arguments: refused)
    func refuses(name: String, body: String) {
        expectRefusal(name, body, as: .ecb)
    }

    @Test func refusesInvalidUTF8() {
        var body = Array(ECB.valid.utf8)
        body.insert(contentsOf: [0xC3, 0x28], at: body.firstIndex(of: UInt8(ascii: "R"))!)
        #expect(refusal(body, as: .ecb) != nil)
    }

    @Test func messagesNameTheProblem() {
        #expect(refusal(ECB.document(ECB.day("2026-11-20", [("USD", "abc")])), as: .ecb)
            == "ecb: 2026-11-20: rate 'abc' for USD is not a decimal number")
        #expect(refusal(ECB.document(ECB.day("2026-11-20", [("USD", "1,0862")])), as: .ecb)
            == "ecb: 2026-11-20: rate '1,0862' for USD uses a decimal comma")
        #expect(refusal(ECB.document(ECB.day("2026-11-20", [("USD", "1.1"), ("USD", "1.1")])), as: .ecb)
            == "ecb: 2026-11-20: duplicate currency USD")
        #expect(refusal("<html><body>502</body></html>", as: .ecb)
            == "ecb: line 1: the root element is <html> (namespace none), not the ECB gesmes:Envelope")
        #expect(refusal(String(ECB.valid.dropLast(19)), as: .ecb)?.contains("malformed XML") == true)
    }
}
