import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderTesting
import Testing

/// Frankfurter v1's routes and time series over the stored history (SPEC §3): unconverted answers are
/// the bytes of Larder's own routes; queries, conversions, rounding and errors are Frankfurter's
/// (`lib/versions/v1.rb`); the expected numbers are what Frankfurter's own code computes.
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

    /// The cache headers of an answer that can still change, on the 100 s TTL of these suites.
    static let changing = "public, max-age=100, stale-while-revalidate=100, stale-if-error=2400"

    /// Larder mirroring `feed` (these days by default) on a 100 s TTL.
    static func withFeed<T: Sendable>(
        _ feed: String = ECB.document(days), _ body: (TestLarder) async throws -> T
    ) async throws -> T {
        try await withRatesFeed(feed) { larder, _ in try await body(larder) }
    }

    @Test func theLatestDayAnswersTheSameBytesUnderEveryName() async throws {
        try await Self.withFeed { larder in
            var answers: [String: TestResponse] = [:]
            // The clock is at 2027-01-15: a date up to 14 days after the newest day answers it (Frankfurter's lookback).
            for path in ["/rates", "/latest", "/current", "/v1/latest", "/v1/current", "/2027-01-12", "/v1/2027-01-12",
                         "/rates/2030-01-01", "/2026-12-29"] {
                answers[path] = try await larder.get(path)
            }
            for (path, answer) in answers {
                #expect(answer.status == 200, "\(path)")
                #expect(answer.text == Self.day("2026-12-29"), "\(path): the newest day, also for a later date")
                #expect(answer.header("Cache-Control") == Self.changing, "\(path): the newest day can still change")
                #expect(answer.header("ETag") == answers["/rates"]?.header("ETag"), "\(path)")
            }
        }
    }

    @Test func aPastDaySnapsBackToTheLatestEarlierStoredDayAndIsImmutable() async throws {
        try await Self.withFeed { larder in
            let (saturday, v1, ownName, christmas, exact, before, v1Before, farAfter) = try await (
                larder.get("/2026-12-19"), larder.get("/v1/2026-12-19"), larder.get("/rates/2026-12-19"),
                larder.get("/v1/2026-12-26"), larder.get("/2026-12-17"), larder.get("/2026-12-16"),
                larder.get("/v1/1999-01-01"), larder.get("/v1/2027-01-13")
            )
            #expect(saturday.text == Self.day("2026-12-18"))
            #expect(v1.text == saturday.text && ownName.text == saturday.text)
            #expect(saturday.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(christmas.text == Self.day("2026-12-24"))
            #expect(exact.text == Self.day("2026-12-17"))
            #expect(before.status == 404 && v1Before.status == 404)
            #expect(before.text == #"{"message":"not found"}"# + "\n", "Frankfurter's error")
            #expect(farAfter.status == 404, "15 days after the newest day: past Frankfurter's 14-day lookback")
        }
    }

    @Test func rangesSnapTheStartBackAndListEveryStoredDayAscending() async throws {
        try await Self.withFeed { larder in
            let (weekend, v1, ownName, holidays, open, beforeData, future, pastEnd, allBefore) = try await (
                larder.get("/2026-12-19..2026-12-23"), larder.get("/v1/2026-12-19..2026-12-23"),
                larder.get("/rates/2026-12-19..2026-12-23"), larder.get("/2026-12-24..2026-12-28"),
                larder.get("/v1/2026-12-22.."), larder.get("/2026-01-01..2026-12-18"), larder.get("/2027-01-14.."),
                larder.get("/2026-12-28..2031-01-01"), larder.get("/2026-01-01..2026-12-16")
            )
            #expect(weekend.text == Self.series(["2026-12-18", "2026-12-21", "2026-12-22", "2026-12-23"]))
            #expect(v1.text == weekend.text && ownName.text == weekend.text)
            #expect(weekend.header("Cache-Control") == "public, max-age=31536000, immutable", "a past range never changes")
            #expect(holidays.text == Self.series(["2026-12-24", "2026-12-28"]), "25 and 26 December hold no rates")
            #expect(open.text == Self.series(["2026-12-22", "2026-12-23", "2026-12-24", "2026-12-28", "2026-12-29"]))
            #expect(open.header("Cache-Control") == Self.changing, "an open range grows with the next day")
            #expect(beforeData.text == Self.series(["2026-12-17", "2026-12-18"]))
            #expect(future.text == Self.series(["2026-12-29"]), "a start after the newest day snaps back to it")
            #expect(pastEnd.header("Cache-Control") == Self.changing)
            #expect(allBefore.status == 404)
            let (afterToday, reversed) = try await (larder.get("/v1/2027-01-16.."), larder.get("/v1/2026-12-20..2026-12-19"))
            #expect(afterToday.status == 404, "a start after today (2027-01-15) holds nothing")
            #expect(reversed.text == Self.series(["2026-12-18"]), "Frankfurter snaps the start back before it compares")
        }
    }

    @Test func rangesTakeBaseSymbolsAndAmount() async throws {
        try await Self.withFeed { larder in
            let usd = try await larder.get("/v1/2026-12-21..2026-12-22?base=USD&symbols=GBP,EUR&amount=10")
            let aliases = try await larder.get("/2026-12-21..2026-12-22?from=usd&to=gbp,eur&amount=10")
            let symbols = try await larder.get("/2026-12-28..?symbols=JPY")
            let day = try await larder.get("/v1/2026-12-21?base=USD&symbols=JPY")
            // Frankfurter rounds 10 × each rate first (10.52, 8.42), then 10 × 8.42 / 10.52 = 8.003802… to 4
            // decimals; 10 × 10 / 10.53 = 9.496676… is 9.4967 (Larder's own rule says 9.49668).
            #expect(usd.text == #"{"amount":10.0,"base":"USD","start_date":"2026-12-21","end_date":"2026-12-22","rates":{"2026-12-21":{"EUR":9.5057,"GBP":8.0038},"2026-12-22":{"EUR":9.4967,"GBP":8.0057}}}"# + "\n")
            #expect(aliases.text == usd.text)
            #expect(symbols.text == #"{"amount":1,"base":"EUR","start_date":"2026-12-28","end_date":"2026-12-29","rates":{"2026-12-28":{"JPY":160.70},"2026-12-29":{"JPY":160.80}}}"# + "\n")
            // 160.30 / 1.0520 = 152.376425…: two decimals above 80 (Larder's own rule says 152.376).
            #expect(day.text == #"{"amount":1,"base":"USD","date":"2026-12-21","rates":{"JPY":152.38}}"# + "\n")
            #expect(day.header("Cache-Control")?.contains("immutable") == true)
        }
    }

    @Test(arguments: [
        ("/latest?base=XXX", 404, "not found"), ("/v1/latest?symbols=XXX,ABC", 404, "not found"),
        ("/v1/2026-12-21..?base=ABC", 404, "not found"), ("/v1/latest?symbols=EUR", 404, "not found"),
        ("/v1/latest?base=&symbols=USD", 404, "not found"), ("/v1/latest?base=USD&symbols=USD,USD", 404, "not found"),
        ("/2026-12-16", 404, "not found"), ("/v1/2026-01-01..2026-12-16", 404, "not found"),
        ("/latest?amount=0", 422, "invalid amount"), ("/latest?amount=-5", 422, "invalid amount"),
        ("/v1/latest?amount=abc", 422, "invalid amount"), ("/v1/latest?amount=1e300", 422, "invalid amount"),
        ("/latest?base=USD&symbols=USD", 422, "bad currency pair"), ("/v1/latest?from=GBP&to=gbp", 422, "bad currency pair"),
        ("/2026-02-30", 422, "invalid date"), ("/2026-13-01..", 422, "invalid date"), ("/v1/2026-12-01..2026-12-32", 422, "invalid date"),
        // Frankfurter's order: the amount, then the date, then the pair.
        ("/v1/2026-02-30?amount=0", 422, "invalid amount"), ("/2026-02-30?base=USD&to=USD", 422, "invalid date"),
    ] as [(String, Int, String)])
    func frankfurterErrorsAreFrankfurters(target: String, status: Int, message: String) async throws {
        try await Self.withFeed { larder in
            let answer = try await larder.get(target)
            #expect(answer.status == status, "\(target): \(answer.text)")
            #expect(answer.text == #"{"message":"\#(message)"}"# + "\n", "\(target)")
            #expect(answer.header("Cache-Control") == "no-store", "\(target)")
        }
    }

    @Test(arguments: ["/v1/nowhere", "/v1/2026-12-21...", "/v1/latest/x", "/v1/rates"])
    func anUnroutedPathUnderV1IsFrankfurtersNotFound(target: String) async throws {
        try await Self.withFeed { larder in
            let answer = try await larder.get(target)
            #expect(answer.status == 404)
            #expect(answer.text == #"{"status":404,"message":"not found"}"# + "\n", "\(target)")
        }
    }

    @Test func frankfurterReadsItsQueryAsFrankfurterDoes() async throws {
        try await Self.withFeed { larder in
            let (unknown, repeated, trailing, lenient, partly, fromWins) = try await (
                larder.get("/latest?when=now"), larder.get("/v1/2026-12-21?amount=1&amount=2&symbols=USD"),
                larder.get("/v1/latest?amount=10abc&symbols=USD"), larder.get("/v1/latest?amount=1_000&symbols=USD"),
                larder.get("/v1/latest?symbols=USD,XXX"), larder.get("/v1/latest?base=GBP&from=usd&symbols=JPY")
            )
            #expect(unknown.text == Self.day("2026-12-29"), "an unknown parameter is ignored")
            #expect(repeated.text == #"{"amount":2.0,"base":"EUR","date":"2026-12-21","rates":{"USD":2.104}}"# + "\n", "the last one counts")
            #expect(trailing.text == #"{"amount":10.0,"base":"EUR","date":"2026-12-29","rates":{"USD":10.57}}"# + "\n", "Ruby's to_f")
            #expect(lenient.text == #"{"amount":1000.0,"base":"EUR","date":"2026-12-29","rates":{"USD":1057.0}}"# + "\n")
            #expect(partly.text == #"{"amount":1,"base":"EUR","date":"2026-12-29","rates":{"USD":1.0570}}"# + "\n", "unknown symbols left out")
            // 160.80 / 1.0570 = 152.128666…
            #expect(fromWins.text == #"{"amount":1,"base":"USD","date":"2026-12-29","rates":{"JPY":152.13}}"# + "\n", "from wins over base")
        }
    }

    @Test(arguments: [
        ("/rates?base=XXX", 422), ("/rates?amount=abc", 400), ("/rates?amount=0", 422), ("/rates/2026-02-30", 400),
        ("/rates/2026-12-22..2026-12-01", 400), ("/rates/yesterday", 400), ("/rates?when=now", 400),
        // Paths that are no date at all are no route.
        ("/nowhere", 404), ("/2026-1-1", 404),
    ] as [(String, Int)])
    func larderErrorsKeepLardersShapeOnItsOwnRoutes(target: String, status: Int) async throws {
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
            #expect(currencies.text == #"{"EUR":"Euro","GBP":"British Pound","JPY":"Japanese Yen","USD":"United States Dollar"}"# + "\n")
            #expect(latest.json?["base"] as? String == "USD")
            #expect((latest.json?["rates"] as? [String: Any]).map { Set($0.keys) } == ["GBP", "JPY"])
            #expect(day.text == Self.day("2026-12-22"))
            #expect(month.text == Self.series(Self.days.map(\.0)))
            // 100 × 84.7 / 105.7 = 80.13245…: two decimals above 80.
            #expect(converted.text == #"{"amount":100.0,"base":"USD","date":"2026-12-29","rates":{"GBP":80.13}}"# + "\n")
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

    /// Each expected body is what Frankfurter's own v1 code (`Quote::Base`, `Roundable`) computes from
    /// these days, keys sorted: a whole rebase, a range in another base, amounts past 5000 (whole
    /// units) and a base whose values fall below 0.01.
    @Test(arguments: [
        ("/v1/2014-04-17?base=USD",
         #"{"amount":1,"base":"USD","date":"2014-04-17","rates":{"AUD":1.0698,"BGN":1.4116,"BRL":2.2403,"CAD":1.1009,"CHF":0.87874,"CNY":6.2179,"CZK":19.8499,"DKK":5.389,"EUR":0.72176,"GBP":0.59495,"HKD":7.7544,"HRK":5.5031,"HUF":222.11,"IDR":11420,"ILS":3.4756,"INR":60.325,"JPY":102.18,"KRW":1038.83,"LTL":2.4921,"MXN":13.063,"MYR":3.2379,"NOK":5.9779,"NZD":1.1615,"PHP":44.344,"PLN":3.0268,"RON":3.2214,"RUB":35.916,"SEK":6.5746,"SGD":1.2498,"THB":32.184,"TRY":2.1329,"ZAR":10.53}}"#),
        ("/2014-04-17..2014-04-22?amount=100&from=JPY&to=USD,GBP,EUR",
         #"{"amount":100.0,"base":"JPY","start_date":"2014-04-17","end_date":"2014-04-22","rates":{"2014-04-17":{"EUR":0.70636,"GBP":0.58226,"USD":0.97867},"2014-04-22":{"EUR":0.70577,"GBP":0.57908,"USD":0.97516}}}"#),
        ("/v1/2014-06-13?amount=1234.5&symbols=HUF,KRW,JPY,GBP",
         #"{"amount":1234.5,"base":"EUR","date":"2014-06-13","rates":{"GBP":985.01,"HUF":378498,"JPY":170460,"KRW":1703190}}"#),
        ("/v1/2014-06-13?amount=3&base=huf&symbols=LTL,EUR,CZK",
         #"{"amount":3.0,"base":"HUF","date":"2014-06-13","rates":{"CZK":0.26849,"EUR":0.00978,"LTL":0.03378}}"#),
    ] as [(String, String)])
    func conversionsEqualFrankfurtersToTheLastDigit(target: String, body: String) async throws {
        let feed = try SharedFixtures.text("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml")
        try await FrankfurterRoutesTests.withFeed(feed) { larder in
            let answer = try await larder.get(target)
            #expect(answer.status == 200)
            #expect(answer.text == body + "\n", "\(target)")
        }
    }

    @Test func currencyNamesAndErrorsOverARealHistory() async throws {
        let feed = try SharedFixtures.text("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml")
        try await FrankfurterRoutesTests.withFeed(feed) { larder in
            let (names, v1Names, pair, amount, date, unknown, unrouted) = try await (
                larder.get("/currencies"), larder.get("/v1/currencies?base=USD"), larder.get("/v1/2014-04-17?from=USD&to=usd"),
                larder.get("/v1/2014-04-17..?amount=-1"), larder.get("/2014-02-29"), larder.get("/v1/latest?base=CYP"),
                larder.get("/v1/2014-04-17/USD")
            )
            // The table's names, withdrawn codes included (HRK, LTL), as Frankfurter's Money::Currency.find names them.
            #expect(names.text == #"{"AUD":"Australian Dollar","BGN":"Bulgarian Lev","BRL":"Brazilian Real","CAD":"Canadian Dollar","CHF":"Swiss Franc","CNY":"Chinese Renminbi Yuan","CZK":"Czech Koruna","DKK":"Danish Krone","EUR":"Euro","GBP":"British Pound","HKD":"Hong Kong Dollar","HRK":"Croatian Kuna","HUF":"Hungarian Forint","IDR":"Indonesian Rupiah","ILS":"Israeli New Shekel","INR":"Indian Rupee","JPY":"Japanese Yen","KRW":"South Korean Won","LTL":"Lithuanian Litas","MXN":"Mexican Peso","MYR":"Malaysian Ringgit","NOK":"Norwegian Krone","NZD":"New Zealand Dollar","PHP":"Philippine Peso","PLN":"Polish Złoty","RON":"Romanian Leu","RUB":"Russian Ruble","SEK":"Swedish Krona","SGD":"Singapore Dollar","THB":"Thai Baht","TRY":"Turkish Lira","USD":"United States Dollar","ZAR":"South African Rand"}"# + "\n")
            #expect(v1Names.text == names.text && v1Names.header("ETag") == names.header("ETag"))
            #expect(pair.status == 422 && pair.text == #"{"message":"bad currency pair"}"# + "\n")
            #expect(amount.status == 422 && amount.text == #"{"message":"invalid amount"}"# + "\n")
            #expect(date.status == 422 && date.text == #"{"message":"invalid date"}"# + "\n", "2014 had no 29 February")
            #expect(unknown.status == 404 && unknown.text == #"{"message":"not found"}"# + "\n", "CYP left the ECB's list in 2008")
            #expect(unrouted.status == 404 && unrouted.text == #"{"status":404,"message":"not found"}"# + "\n")
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
                         "/rates/2099-12-31"] {
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
            #expect(try await larder.get("/v1/2099-12-31").status == 404, "past Frankfurter's 14-day lookback")
        }
    }
}

/// The shared real-upstream fixtures, which are not part of the repository and may be absent.
enum SharedFixtures {
    static let directory = sharedFixtures("rates")

    static var present: Bool {
        FileManager.default.fileExists(atPath: directory.appending(path: "README.md").path)
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appending(path: name), encoding: .utf8)
    }
}
