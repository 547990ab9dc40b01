import Foundation
import LarderTesting
import Testing

/// Frankfurter v2's rates routes over the ECB's 90-day history of spring 2014, answer by answer:
/// every expected body below is what Frankfurter itself (60541ad, fed the same ECB file) answered
/// for the same request, byte for byte, with its status.
@Suite("Rates: Frankfurter v2 rates over the ECB's 90-day history", .serialized, .enabled(if: SharedFixtures.present))
struct V2RatesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let path: String
        let header: (String, String)?
        let status: Int
        let body: String

        init(_ name: String, _ path: String, header: (String, String)?, status: Int, body: String) {
            self.name = name
            self.path = path
            self.header = header
            self.status = status
            self.body = body
        }

        var testDescription: String { name }
    }

    /// Easter 2014 (18 and 21 April) and 1 May are ECB holidays; 2014-06-13, a Friday, is the newest day.
    static let cases: [Case] = [
        Case("latest", #"/v2/rates?quotes=USD,GBP,XOF,EUR"#, header: nil, status: 200,
             body: #"[{"date":"2014-06-13","base":"EUR","quote":"EUR","rate":1.0},{"date":"2014-06-13","base":"EUR","quote":"GBP","rate":0.7979},{"date":"2014-06-13","base":"EUR","quote":"USD","rate":1.3534},{"date":"2014-06-13","base":"EUR","quote":"XOF","rate":655.96}]"#),
        Case("weekend", #"/v2/rates?date=2014-05-04&quotes=USD,GBP,JPY"#, header: nil, status: 200,
             body: #"[{"date":"2014-05-02","base":"EUR","quote":"GBP","rate":0.8214},{"date":"2014-05-02","base":"EUR","quote":"JPY","rate":142.06},{"date":"2014-05-02","base":"EUR","quote":"USD","rate":1.3862}]"#),
        Case("holidayPair", #"/v2/rate/EUR/USD?date=2014-04-21"#, header: nil, status: 200,
             body: #"{"date":"2014-04-17","base":"EUR","quote":"USD","rate":1.3855}"#),
        Case("holidayInUSD", #"/v2/rates?date=2014-04-18&base=USD&quotes=EUR,GBP,AED,IDR,JPY,USD"#, header: nil, status: 200,
             body: #"[{"date":"2014-04-17","base":"USD","quote":"AED","rate":3.6725},{"date":"2014-04-17","base":"USD","quote":"EUR","rate":0.72176},{"date":"2014-04-17","base":"USD","quote":"GBP","rate":0.59495},{"date":"2014-04-17","base":"USD","quote":"IDR","rate":11420},{"date":"2014-04-17","base":"USD","quote":"JPY","rate":102.18},{"date":"2014-04-17","base":"USD","quote":"USD","rate":1.0}]"#),
        Case("rangeAcrossEaster", #"/v2/rates?from=2014-04-16&to=2014-04-23&quotes=USD,GBP"#, header: nil, status: 200,
             body: #"[{"date":"2014-04-16","base":"EUR","quote":"GBP","rate":0.8239},{"date":"2014-04-16","base":"EUR","quote":"USD","rate":1.384},{"date":"2014-04-17","base":"EUR","quote":"GBP","rate":0.8243},{"date":"2014-04-17","base":"EUR","quote":"USD","rate":1.3855},{"date":"2014-04-22","base":"EUR","quote":"GBP","rate":0.8205},{"date":"2014-04-22","base":"EUR","quote":"USD","rate":1.3817},{"date":"2014-04-23","base":"EUR","quote":"GBP","rate":0.8239},{"date":"2014-04-23","base":"EUR","quote":"USD","rate":1.3834}]"#),
        Case("silentStart", #"/v2/rates?from=2014-04-19&to=2014-04-23&quotes=USD"#, header: nil, status: 200,
             body: #"[{"date":"2014-04-17","base":"EUR","quote":"USD","rate":1.3855},{"date":"2014-04-22","base":"EUR","quote":"USD","rate":1.3817},{"date":"2014-04-23","base":"EUR","quote":"USD","rate":1.3834}]"#),
        Case("weeks", #"/v2/rates?from=2014-04-01&to=2014-05-31&group=week&quotes=USD"#, header: nil, status: 200,
             body: #"[{"date":"2014-03-26","base":"EUR","quote":"USD","rate":1.3774},{"date":"2014-04-02","base":"EUR","quote":"USD","rate":1.3769},{"date":"2014-04-09","base":"EUR","quote":"USD","rate":1.3806},{"date":"2014-04-16","base":"EUR","quote":"USD","rate":1.3831},{"date":"2014-04-23","base":"EUR","quote":"USD","rate":1.3826},{"date":"2014-04-30","base":"EUR","quote":"USD","rate":1.385},{"date":"2014-05-07","base":"EUR","quote":"USD","rate":1.3896},{"date":"2014-05-14","base":"EUR","quote":"USD","rate":1.3708},{"date":"2014-05-21","base":"EUR","quote":"USD","rate":1.3678},{"date":"2014-05-28","base":"EUR","quote":"USD","rate":1.362}]"#),
        Case("months", #"/v2/rates?from=2014-04-01&to=2014-06-13&group=month&base=USD&quotes=EUR,GBP,AED"#, header: nil, status: 200,
             body: #"[{"date":"2014-04-01","base":"USD","quote":"AED","rate":3.6725},{"date":"2014-04-01","base":"USD","quote":"EUR","rate":0.72398},{"date":"2014-04-01","base":"USD","quote":"GBP","rate":0.59743},{"date":"2014-05-01","base":"USD","quote":"AED","rate":3.6725},{"date":"2014-05-01","base":"USD","quote":"EUR","rate":0.72822},{"date":"2014-05-01","base":"USD","quote":"GBP","rate":0.59375},{"date":"2014-06-01","base":"USD","quote":"AED","rate":3.6725},{"date":"2014-06-01","base":"USD","quote":"EUR","rate":0.73607},{"date":"2014-06-01","base":"USD","quote":"GBP","rate":0.59533}]"#),
        Case("csvRange", #"/v2/rates.csv?from=2014-04-17&to=2014-04-22&quotes=USD,BAM&expand=providers"#, header: nil, status: 200,
             body: #"date,base,quote,rate,providers"# + "\n" + #"2014-04-17,EUR,BAM,1.9558,"# + "\n" + #"2014-04-17,EUR,USD,1.3855,ECB:1.3855"# + "\n" + #"2014-04-22,EUR,BAM,1.9558,"# + "\n" + #"2014-04-22,EUR,USD,1.3817,ECB:1.3817"# + "\n"),
        Case("csvDay", #"/v2/rates.csv?date=2014-03-28&quotes=USD,XOF,IDR"#, header: nil, status: 200,
             body: #"date,base,quote,rate"# + "\n" + #"2014-03-28,EUR,IDR,15608"# + "\n" + #"2014-03-28,EUR,USD,1.3759"# + "\n" + #"2014-03-28,EUR,XOF,655.96"# + "\n"),
        Case("csvEmpty", #"/v2/rates.csv?date=2014-01-01"#, header: nil, status: 200,
             body: #""#),
        Case("ndjson", #"/v2/rates?from=2014-04-17&to=2014-04-22&quotes=USD,GBP"#, header: ("Accept", "application/x-ndjson"), status: 200,
             body: #"{"date":"2014-04-17","base":"EUR","quote":"GBP","rate":0.8243}"# + "\n" + #"{"date":"2014-04-17","base":"EUR","quote":"USD","rate":1.3855}"# + "\n" + #"{"date":"2014-04-22","base":"EUR","quote":"GBP","rate":0.8205}"# + "\n" + #"{"date":"2014-04-22","base":"EUR","quote":"USD","rate":1.3817}"# + "\n"),
        Case("expand", #"/v2/rates?date=2014-04-18&quotes=USD,GBP,XOF,IDR,EUR&expand=providers"#, header: nil, status: 200,
             body: #"[{"date":"2014-04-17","base":"EUR","quote":"EUR","rate":1.0},{"date":"2014-04-17","base":"EUR","quote":"GBP","rate":0.8243,"providers":[{"key":"ECB","date":"2014-04-17","rate":0.8243}]},{"date":"2014-04-17","base":"EUR","quote":"IDR","rate":15823,"providers":[{"key":"ECB","date":"2014-04-17","rate":15823}]},{"date":"2014-04-17","base":"EUR","quote":"USD","rate":1.3855,"providers":[{"key":"ECB","date":"2014-04-17","rate":1.3855}]},{"date":"2014-04-17","base":"EUR","quote":"XOF","rate":655.96}]"#),
        Case("published", #"/v2/rates?date=2014-04-17&providers=ECB&quotes=USD,GBP,IDR,XOF"#, header: nil, status: 200,
             body: #"[{"date":"2014-04-17","base":"EUR","quote":"GBP","rate":0.8243},{"date":"2014-04-17","base":"EUR","quote":"IDR","rate":15822.52},{"date":"2014-04-17","base":"EUR","quote":"USD","rate":1.3855}]"#),
        Case("unknownParameters", #"/v2/rates?foo=1&bar=2"#, header: nil, status: 422,
             body: #"{"status":422,"message":"unknown parameter: foo, bar"}"#),
        Case("invalidDate", #"/v2/rates?date=2014-13-01"#, header: nil, status: 422,
             body: #"{"status":422,"message":"invalid date"}"#),
        Case("conflicting", #"/v2/rates?date=2014-04-01&to=2014-04-02"#, header: nil, status: 422,
             body: #"{"status":422,"message":"conflicting params"}"#),
        Case("invalidGroup", #"/v2/rates?from=2014-04-01&group=day"#, header: nil, status: 422,
             body: #"{"status":422,"message":"invalid group"}"#),
        Case("invalidExpand", #"/v2/rates?expand=x,providers,y"#, header: nil, status: 422,
             body: #"{"status":422,"message":"invalid expand: x,y"}"#),
        Case("invalidCurrency", #"/v2/rates?base=XXX&quotes=USD,YYY"#, header: nil, status: 422,
             body: #"{"status":422,"message":"invalid currency: XXX,YYY"}"#),
        Case("pairNotFound", #"/v2/rate/EUR/USD?date=2014-01-01"#, header: nil, status: 404,
             body: #"{"status":404,"message":"not found"}"#),
        Case("csvElsewhere", #"/v2/currencies.csv"#, header: nil, status: 406,
             body: #""#),
        Case("csvByAcceptElsewhere", #"/v2/nowhere"#, header: ("Accept", "text/csv"), status: 406,
             body: #""#),
        Case("pairIgnoresAccept", #"/v2/rate/EUR/USD?date=2014-04-18"#, header: ("Accept", "text/csv"), status: 200,
             body: #"{"date":"2014-04-17","base":"EUR","quote":"USD","rate":1.3855}"#),
        Case("bitcoinIsACurrency", #"/v2/rate/EUR/BTC?date=2014-04-18"#, header: nil, status: 404,
             body: #"{"status":404,"message":"not found"}"#),
        Case("unrouted", #"/v2/nowhere"#, header: nil, status: 404,
             body: #"{"status":404,"message":"not found"}"#),
    ]

    /// Larder on the 90-day file, its clock on Monday 2014-06-16 (so the latest is Friday's).
    static func withHistory<T: Sendable>(_ body: (TestLarder) async throws -> T) async throws -> T {
        let feed = try SharedFixtures.text("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml")
        return try await withRatesFeed(feed, now: Date(timeIntervalSince1970: 1_402_920_000)) { larder, _ in
            try await body(larder)
        }
    }

    @Test func everyAnswerIsFrankfurters() async throws {
        try await Self.withHistory { larder in
            for answer in Self.cases {
                let response = try await larder.get(answer.path, headers: answer.header.map { [$0] } ?? [])
                #expect(response.status == answer.status, "\(answer.name): \(answer.path)")
                #expect(response.text == answer.body, "\(answer.name): \(answer.path)")
            }
        }
    }

    @Test func formsAreTypedAndVaryByAccept() async throws {
        try await Self.withHistory { larder in
            let json = try await larder.get("/v2/rates?quotes=USD")
            let ndjson = try await larder.get("/v2/rates?quotes=USD", headers: [("Accept", "application/x-ndjson")])
            let csv = try await larder.get("/v2/rates.csv?quotes=USD")
            let preferred = try await larder.get("/v2/rates?quotes=USD", headers: [("Accept", "text/csv")])
            let error = try await larder.get("/v2/rates?date=yesterday")
            #expect(json.header("Content-Type") == "application/json; charset=utf-8")
            #expect(ndjson.header("Content-Type") == "application/x-ndjson")
            #expect(csv.header("Content-Type") == "text/csv")
            #expect(preferred.text == csv.text, "Accept: text/csv on /v2/rates is the CSV, as Frankfurter's type routing")
            #expect(json.header("Vary")?.contains("Accept") == true && ndjson.header("Vary")?.contains("Accept") == true)
            #expect(json.header("ETag") != ndjson.header("ETag"), "one representation each")
            #expect(error.header("Cache-Control") == "no-store")
            #expect(error.text == #"{"status":422,"message":"invalid date"}"#)
        }
    }

    @Test func answersRevalidateAndClosedPastsAreImmutable() async throws {
        try await Self.withHistory { larder in
            let latest = try await larder.get("/v2/rates")
            let etag = try #require(latest.header("ETag"))
            #expect(!etag.hasPrefix("W/"), "a strong validator")
            #expect(latest.header("Cache-Control") == "public, max-age=100, stale-while-revalidate=100, stale-if-error=2400", "the latest can still change")
            let again = try await larder.get("/v2/rates", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.text.isEmpty)
            let head = try await larder.request("HEAD", "/v2/rates")
            #expect(head.status == 200 && head.header("ETag") == etag && head.text.isEmpty)
            let past = try await larder.get("/v2/rates?from=2014-04-16&to=2014-04-23")
            #expect(past.header("Cache-Control") == "public, max-age=31536000, immutable")
            let day = try await larder.get("/v2/rate/EUR/USD?date=2014-04-21")
            #expect(day.header("Cache-Control") == "public, max-age=31536000, immutable")
            let open = try await larder.get("/v2/rates?from=2014-06-01")
            #expect(open.header("Cache-Control") == "public, max-age=100, stale-while-revalidate=100, stale-if-error=2400", "an open range ends today")
        }
    }

    @Test func theLatestHasEveryCurrencyThePegsAndTheIdentityRow() async throws {
        try await Self.withHistory { larder in
            let body = try await larder.get("/v2/rates").body
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]])
            let quotes = rows.compactMap { $0["quote"] as? String }
            #expect(quotes == quotes.sorted())
            #expect(rows.count == 53, "32 ECB currencies, 20 pegs (BAM…XOF, not the base's own), EUR itself")
            #expect(Set(rows.compactMap { $0["date"] as? String }) == ["2014-06-13"])
            for peg in ["AED", "BAM", "XOF", "XAF", "SAR", "MOP", "BTN"] { #expect(quotes.contains(peg), "\(peg)") }
        }
    }

    @Test func theCalendarsEndsAreAnsweredNotTrapped() async throws {
        try await Self.withHistory { larder in
            let last = try await larder.get("/v2/rates?from=9999-10-01&to=9999-12-31")
            let all = try await larder.get("/v2/rates?from=0001-01-01&to=9999-12-31&quotes=USD&group=month")
            let days = try await larder.get("/v2/rates?from=0001-01-01&to=9999-12-31&quotes=USD")
            #expect(last.status == 200 && last.text == "[]")
            #expect(all.status == 200 && all.text.hasPrefix(#"[{"date":"2014-03-01""#))
            #expect(days.status == 200 && days.text.hasSuffix(#"{"date":"2014-06-13","base":"EUR","quote":"USD","rate":1.3534}]"#))
        }
    }

    @Test func aWholeHistoryStreamsInOrder() async throws {
        try await Self.withHistory { larder in
            // Longer than five years: streamed, not prepared; the same rows as the year it holds.
            let streamed = try await larder.get("/v2/rates?from=2008-01-01&quotes=USD", headers: [("Accept", "application/x-ndjson")])
            let prepared = try await larder.get("/v2/rates?from=2014-03-17&quotes=USD", headers: [("Accept", "application/x-ndjson")])
            #expect(streamed.status == 200 && streamed.text == prepared.text)
            #expect(streamed.text.split(separator: "\n").count == 62)
            let etag = try #require(streamed.header("ETag"))
            let again = try await larder.get("/v2/rates?from=2008-01-01&quotes=USD",
                                             headers: [("Accept", "application/x-ndjson"), ("If-None-Match", etag)])
            #expect(again.status == 304)
        }
    }
}
