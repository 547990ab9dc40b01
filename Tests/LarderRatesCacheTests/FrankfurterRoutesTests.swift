import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderTesting
import Testing

/// Frankfurter v1's routes and time series over the stored history (SPEC §3): every path of a kind
/// serves the same bytes, with Frankfurter's edge rules and error statuses.
@Suite("Rates: Frankfurter v1 routes and time series", .serialized)
struct FrankfurterRoutesTests {
    /// Eight days around Christmas 2026: a weekend (19–20) and the holidays 25–26 inside.
    static let days: [(String, [(String, String)])] = [
        ("2026-12-17", [("USD", "1.0500"), ("GBP", "0.8400"), ("JPY", "160.10")]),
        ("2026-12-18", [("USD", "1.0510"), ("GBP", "0.8410"), ("JPY", "160.20")]),
        ("2026-12-21", [("USD", "1.0520"), ("GBP", "0.8420"), ("JPY", "160.30")]),
        ("2026-12-22", [("USD", "1.0530"), ("GBP", "0.8430"), ("JPY", "160.40")]),
        ("2026-12-23", [("USD", "1.0540"), ("GBP", "0.8440"), ("JPY", "160.50")]),
        ("2026-12-24", [("USD", "1.0550"), ("GBP", "0.8450"), ("JPY", "160.60")]),
        ("2026-12-28", [("USD", "1.0560"), ("GBP", "0.8460"), ("JPY", "160.70")]),
        ("2026-12-29", [("USD", "1.0570"), ("GBP", "0.8470"), ("JPY", "160.80")]),
    ]

    static func object(_ date: String) -> String {
        let rates = days.first { $0.0 == date }!.1.sorted { $0.0 < $1.0 }
        return "{" + rates.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func day(_ date: String) -> String {
        #"{"amount":1,"base":"EUR","date":"\#(date)","rates":\#(object(date))}"# + "\n"
    }

    static func series(_ dates: [String]) -> String {
        let rates = dates.map { "\"\($0)\":\(object($0))" }.joined(separator: ",")
        return #"{"amount":1,"base":"EUR","start_date":"\#(dates.first!)","end_date":"\#(dates.last!)","rates":{\#(rates)}}"#
            + "\n"
    }

    /// Larder mirroring `feed` (these days by default) on a 100 s TTL.
    static func withFeed<T: Sendable>(
        _ feed: String = ECB.document(days), _ body: (TestLarder) async throws -> T
    ) async throws -> T {
        try await withRatesFeed(feed) { larder, _ in try await body(larder) }
    }

    @Test func theLatestDayAnswersTheSameBytesUnderEveryName() async throws {
        try await Self.withFeed { larder in
            var answers: [String: TestResponse] = [:]
            for path in ["/rates", "/latest", "/current", "/v1/latest", "/v1/current", "/2030-01-01", "/v1/2030-01-01",
                         "/rates/2030-01-01", "/2026-12-29"] {
                answers[path] = try await larder.get(path)
            }
            for (path, answer) in answers {
                #expect(answer.status == 200, "\(path)")
                #expect(answer.text == Self.day("2026-12-29"), "\(path): the newest day, also for a future date")
                #expect(answer.header("Cache-Control") == "public, max-age=100", "\(path): the newest day can still change")
                #expect(answer.header("ETag") == answers["/rates"]?.header("ETag"), "\(path)")
            }
        }
    }

    @Test func aPastDaySnapsBackToTheLatestEarlierStoredDayAndIsImmutable() async throws {
        try await Self.withFeed { larder in
            let (saturday, v1, ownName, christmas, exact, before, v1Before) = try await (
                larder.get("/2026-12-19"), larder.get("/v1/2026-12-19"), larder.get("/rates/2026-12-19"),
                larder.get("/v1/2026-12-26"), larder.get("/2026-12-17"), larder.get("/2026-12-16"),
                larder.get("/v1/1999-01-01")
            )
            #expect(saturday.text == Self.day("2026-12-18"))
            #expect(v1.text == saturday.text && ownName.text == saturday.text)
            #expect(saturday.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(christmas.text == Self.day("2026-12-24"))
            #expect(exact.text == Self.day("2026-12-17"))
            #expect(before.status == 404 && v1Before.status == 404)
            #expect(before.json?["error"] != nil, "Larder's JSON error shape")
        }
    }

    @Test func rangesSnapTheStartBackAndListEveryStoredDayAscending() async throws {
        try await Self.withFeed { larder in
            let (weekend, v1, ownName, holidays, open, beforeData, future, pastEnd, allBefore) = try await (
                larder.get("/2026-12-19..2026-12-23"), larder.get("/v1/2026-12-19..2026-12-23"),
                larder.get("/rates/2026-12-19..2026-12-23"), larder.get("/2026-12-24..2026-12-28"),
                larder.get("/v1/2026-12-22.."), larder.get("/2026-01-01..2026-12-18"), larder.get("/2030-01-01.."),
                larder.get("/2026-12-28..2031-01-01"), larder.get("/2026-01-01..2026-12-16")
            )
            #expect(weekend.text == Self.series(["2026-12-18", "2026-12-21", "2026-12-22", "2026-12-23"]))
            #expect(v1.text == weekend.text && ownName.text == weekend.text)
            #expect(weekend.header("Cache-Control") == "public, max-age=31536000, immutable", "a past range never changes")
            #expect(holidays.text == Self.series(["2026-12-24", "2026-12-28"]), "25 and 26 December hold no rates")
            #expect(open.text == Self.series(["2026-12-22", "2026-12-23", "2026-12-24", "2026-12-28", "2026-12-29"]))
            #expect(open.header("Cache-Control") == "public, max-age=100", "an open range grows with the next day")
            #expect(beforeData.text == Self.series(["2026-12-17", "2026-12-18"]))
            #expect(future.text == Self.series(["2026-12-29"]), "a start after the newest day snaps back to it")
            #expect(pastEnd.header("Cache-Control") == "public, max-age=100")
            #expect(allBefore.status == 404)
        }
    }

    @Test func rangesTakeBaseSymbolsAndAmount() async throws {
        try await Self.withFeed { larder in
            let usd = try await larder.get("/v1/2026-12-21..2026-12-22?base=USD&symbols=GBP,EUR&amount=10")
            let aliases = try await larder.get("/2026-12-21..2026-12-22?from=usd&to=gbp,eur&amount=10")
            let symbols = try await larder.get("/2026-12-28..?symbols=JPY")
            let day = try await larder.get("/v1/2026-12-21?base=USD&symbols=JPY")
            // 10 × 0.8420 / 1.0520 = 8.003802…, 10 / 1.0520 = 9.505703…; 10 × 0.8430 / 1.0530 = 8.005698…, 10 / 1.0530 = 9.496676…
            #expect(usd.text == #"{"amount":10,"base":"USD","start_date":"2026-12-21","end_date":"2026-12-22","rates":{"2026-12-21":{"EUR":9.5057,"GBP":8.0038},"2026-12-22":{"EUR":9.49668,"GBP":8.0057}}}"# + "\n")
            #expect(aliases.text == usd.text)
            #expect(symbols.text == #"{"amount":1,"base":"EUR","start_date":"2026-12-28","end_date":"2026-12-29","rates":{"2026-12-28":{"JPY":160.70},"2026-12-29":{"JPY":160.80}}}"# + "\n")
            // 160.30 / 1.0520 = 152.376425…
            #expect(day.text == #"{"amount":1,"base":"USD","date":"2026-12-21","rates":{"JPY":152.376}}"# + "\n")
            #expect(day.header("Cache-Control")?.contains("immutable") == true)
        }
    }

    @Test(arguments: [
        // Frankfurter's statuses on its routes (docs/api.md "Frankfurter v1")…
        ("/latest?base=XXX", 404), ("/v1/latest?symbols=USD,XXX", 404), ("/v1/2026-12-21..?base=ABC", 404),
        ("/latest?amount=0", 422), ("/latest?amount=-5", 422), ("/v1/latest?amount=abc", 422),
        ("/latest?base=USD&symbols=USD", 422), ("/v1/latest?from=GBP&to=gbp", 422),
        ("/2026-02-30", 422), ("/v1/2026-12-22..2026-12-01", 422), ("/2026-13-01..", 422),
        ("/latest?when=now", 400), ("/v1/2026-12-21?amount=1&amount=2", 400),
        // …and Larder's own on its names.
        ("/rates?base=XXX", 422), ("/rates?amount=abc", 400), ("/rates?amount=0", 422), ("/rates/2026-02-30", 400),
        ("/rates/2026-12-22..2026-12-01", 400), ("/rates/yesterday", 400),
        // Paths that are no date at all are no route.
        ("/nowhere", 404), ("/2026-1-1", 404), ("/v1/2026-12-21...", 404), ("/v1/nowhere", 404),
    ] as [(String, Int)])
    func errorsHaveTheDialectsStatusAndLardersShape(target: String, status: Int) async throws {
        try await Self.withFeed { larder in
            let answer = try await larder.get(target)
            #expect(answer.status == status, "\(target): \(answer.text)")
            #expect(answer.json?["error"] != nil, "\(target)")
            #expect(answer.header("Cache-Control") == "no-store", "\(target)")
        }
    }

    @Test func rangesAnswer304AndHeadLikeEveryCachedAnswer() async throws {
        try await Self.withFeed { larder in
            let full = try await larder.get("/v1/2026-12-17..2026-12-23")
            let etag = try #require(full.header("ETag"))
            let again = try await larder.get("/2026-12-17..2026-12-23", headers: [("If-None-Match", etag)])
            let head = try await larder.request("HEAD", "/v1/2026-12-17..2026-12-23")
            let since = try await larder.get(
                "/v1/2026-12-17..2026-12-23", headers: [("If-Modified-Since", full.header("Last-Modified") ?? "")])
            #expect(again.status == 304 && again.header("ETag") == etag && again.body.isEmpty)
            #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == etag)
            #expect(since.status == 304)
        }
    }

    /// The calls of the `frankfurter` client from PyPI (2.0.0), byte for byte as it sends them.
    @Test func aFrankfurterClientsCallSequenceWorks() async throws {
        try await Self.withFeed { larder in
            let (currencies, latest, day, month, converted) = try await (
                larder.get("/v1/currencies?"), larder.get("/v1/latest?base=USD&symbols=GBP%2CJPY"),
                larder.get("/v1/2026-12-22?"), larder.get("/v1/2026-12-01..2026-12-31?"),
                larder.get("/latest?amount=100&from=USD&to=GBP")
            )
            #expect(currencies.status == 200)
            #expect(currencies.json.map { Set($0.keys) } == ["EUR", "GBP", "JPY", "USD"])
            #expect(latest.json?["base"] as? String == "USD")
            #expect((latest.json?["rates"] as? [String: Any]).map { Set($0.keys) } == ["GBP", "JPY"])
            #expect(day.text == Self.day("2026-12-22"))
            #expect(month.text == Self.series(Self.days.map(\.0)))
            // 100 × 0.8470 / 1.0570 = 80.13245…
            #expect(converted.text == #"{"amount":100,"base":"USD","date":"2026-12-29","rates":{"GBP":80.1325}}"# + "\n")
        }
    }
}

/// The example of a test in docs/testing.md, kept true by running it.
@Suite("Testing: docs/testing.md's withLarder example")
struct ReadmeExampleTests {
    @Test func aSundayAnswersFridayAndTheTTLRefreshes() async throws {
        try await withLarder { configuration, upstream in
            try await upstream.put("/rates/feed.xml", ECB.document([("2026-11-20", ECB.rates)]))
            configuration.rates = UpstreamResource(url: upstream.url("/rates/feed.xml"), format: .auto)
            configuration.ratesSchedule = .ttl
            configuration.ratesTTL = .seconds(60)
        } _: { larder, upstream in
            let answer = try await larder.get("/v1/2026-11-22")
            #expect(answer.json?["date"] as? String == "2026-11-20")
            larder.clock.advance(by: 60)                          // time moves only when told
            #expect(try await eventually { try await upstream.requests("/rates/feed.xml").total == 2 })
        }
    }
}

/// The same routes over a real ECB file (../shared/fixtures), when present.
@Suite("Rates: Frankfurter routes over the ECB's 90-day history", .serialized, .enabled(if: SharedFixtures.present))
struct FrankfurterFixtureTests {
    @Test func easter2014IsSkippedAndValuesKeepTheirDigits() async throws {
        let feed = try SharedFixtures.text("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml")
        try await FrankfurterRoutesTests.withFeed(feed) { larder in
            let easter = try await larder.get("/v1/2014-04-17..2014-04-22?symbols=USD,GBP")
            let goodFriday = try await larder.get("/2014-04-18?symbols=USD")
            let first = try await larder.get("/v1/2014-03-16")
            let all = try await larder.get("/2014-03-17..")
            #expect(easter.text == #"{"amount":1,"base":"EUR","start_date":"2014-04-17","end_date":"2014-04-22","rates":{"2014-04-17":{"GBP":0.8243,"USD":1.3855},"2014-04-22":{"GBP":0.8205,"USD":1.3817}}}"# + "\n")
            #expect(goodFriday.text == #"{"amount":1,"base":"EUR","date":"2014-04-17","rates":{"USD":1.3855}}"# + "\n")
            #expect(first.status == 404, "before the first stored day")
            let rates = try #require(all.json?["rates"] as? [String: Any])
            #expect(rates.count == 62, "every stored day of the file")
            #expect(all.json?["start_date"] as? String == "2014-03-17" && all.json?["end_date"] as? String == "2014-06-13")
        }
    }
}

/// Every route under every prefix over each real payload: the same bytes, the published digits.
@Suite("Rates: every route and prefix over each real upstream payload", .serialized, .enabled(if: SharedFixtures.present))
struct FixtureRoutesTests {
    @Test(arguments: [
        ("ecb-daily-2013-01-28.xml", "2013-01-28", "EUR", "0.85450"),
        ("ecb-daily-2022-07-08.xml", "2022-07-08", "EUR", "0.84585"),
        ("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml", "2014-06-13", "EUR", nil),
        ("oxr-latest-2011-10-11T0827Z.json", "2011-10-11", "USD", "0.643004115"),
        ("oxr-historical-2012-06-15.json", "2012-06-15", "USD", "0.636517"),
    ] as [(String, String, String, String?)])
    func everyNameServesTheSameBytes(file: String, date: String, base: String, gbp: String?) async throws {
        try await FrankfurterRoutesTests.withFeed(try SharedFixtures.text(file)) { larder in
            let reference = try await larder.get("/rates")
            var same: [(String, TestResponse)] = []
            for path in ["/latest", "/current", "/v1/latest", "/v1/current", "/rates/\(date)", "/\(date)", "/v1/\(date)",
                         "/v1/2099-12-31"] {
                same.append((path, try await larder.get(path)))
            }
            var series: [(String, TestResponse)] = []
            for path in ["/\(date)..", "/v1/\(date)..\(date)", "/rates/\(date)..2099-01-01"] {
                series.append((path, try await larder.get(path)))
            }
            let symbol = try await larder.get("/v1/latest?symbols=GBP")
            let before = try await larder.get("/v1/1998-12-31")
            #expect(reference.status == 200)
            #expect(reference.json?["date"] as? String == date && reference.json?["base"] as? String == base)
            for (path, answer) in same {
                #expect(answer.text == reference.text, "\(path)")
            }
            let object = reference.text.split(separator: "\"rates\":", maxSplits: 1).last.map { String($0.dropLast(2)) } ?? ""
            for (path, answer) in series {
                #expect(answer.text == #"{"amount":1,"base":"\#(base)","start_date":"\#(date)","end_date":"\#(date)","rates":{"\#(date)":\#(object)}}"# + "\n", "\(path)")
            }
            if let gbp {
                #expect(symbol.text == #"{"amount":1,"base":"\#(base)","date":"\#(date)","rates":{"GBP":\#(gbp)}}"# + "\n")
            }
            #expect(before.status == 404)
        }
    }
}

/// The shared real-upstream fixtures, which are not part of the repository and may be absent.
enum SharedFixtures {
    static let directory = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "../shared/fixtures/rates").standardized

    static var present: Bool {
        FileManager.default.fileExists(atPath: directory.appending(path: "README.md").path)
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appending(path: name), encoding: .utf8)
    }
}
