import Foundation
import LarderConfig
import LarderFormats
import LarderRates
import LarderTesting
import Testing

/// The ranged upstream formats end to end: a real Larder syncing from the sample upstream's ECB
/// data API (`ecb-sdmx`) or from another real Larder (`frankfurter`), over loopback.
@Suite("Rates: ecb-sdmx and frankfurter upstreams", .serialized)
struct RatesUpstreamFormatsTests {
    static let feed = ECB.document([
        ("2026-11-18", [("USD", "1.0800"), ("JPY", "161.00")]),
        ("2026-11-19", [("USD", "1.0810"), ("JPY", "161.10")]),
        ("2026-11-20", [("USD", "1.0820"), ("JPY", "161.20")]),
    ])

    /// Larder syncing `ecb-sdmx` from the sample upstream's API over the ECB XML at `ratesFeedPath`.
    static func withSDMX<T: Sendable>(_ body: (TestLarder, SampleUpstreamControl) async throws -> T) async throws -> T {
        try await withRatesFeed(feed) { configuration, upstream in
            configuration.rates = UpstreamResource(url: upstream.url("/sdmx" + ratesFeedPath), format: .ecbSDMX)
        } _: { larder, upstream in
            try await body(larder, upstream)
        }
    }

    @Test func ecbSDMXSyncsTheHistoryThenMergesARevisedPastDayAskedWithUpdatedAfter() async throws {
        try await Self.withSDMX { larder, upstream in
            let first = try await larder.get("/rates")
            #expect(first.status == 200)
            #expect(first.text.contains(#""date":"2026-11-20""#))
            #expect(try await larder.get("/2026-11-18").text.contains(#""USD":1.0800"#))

            // Nothing changed since the first sync: the ECB's 304, an unchanged copy.
            larder.clock.advance(by: 30)
            let quiet = try await larder.request("POST", "/rates/refresh")
            #expect(quiet.json?["outcome"] as? String == "not_modified")

            // The ECB revises a past day: only a request for what changed sees it.
            let lastSuccess = larder.clock.now
            try await upstream.reviseSDMX(ratesFeedPath, day: "2026-11-19", rates: ["USD": "1.0815"], at: lastSuccess + 10)
            larder.clock.advance(by: 30)
            let revised = try await larder.request("POST", "/rates/refresh")
            #expect(revised.json?["outcome"] as? String == "updated")
            #expect(try await larder.get("/2026-11-19").text.contains(#""USD":1.0815"#))
            #expect(try await larder.get("/rates").text.contains(#""date":"2026-11-20""#), "the newest day stays")

            let answers = try await upstream.sdmxAnswers(ratesFeedPath)
            #expect(answers.map(\.query) == [
                "format=csvdata&startPeriod=1999-01-04",
                "format=csvdata&updatedAfter=\(RFC3339.string(lastSuccess - 30, milliseconds: false).dropLast())+00:00",
                "format=csvdata&updatedAfter=\(RFC3339.string(lastSuccess, milliseconds: false).dropLast())+00:00",
            ])
            #expect(answers.map(\.status) == [200, 304, 200])
        }
    }

    @Test func ecbSDMXFollowsTheECBsCalendarUnderTheAutoSchedule() async throws {
        let friday = Date(timeIntervalSince1970: 1_795_190_400) // 2026-11-20T16:00:00Z
        try await withRatesFeed(Self.feed, now: friday) { configuration, upstream in
            configuration.rates = UpstreamResource(url: upstream.url("/sdmx" + ratesFeedPath), format: .ecbSDMX)
            configuration.ratesSchedule = .auto
        } _: { larder, _ in
            let first = try await larder.get("/rates")
            #expect(first.header("Expires") == "Mon, 23 Nov 2026 15:05:00 GMT", "fresh until Monday's expected publication")
            let rates = (try await larder.get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
            #expect(rates?["schedule"] as? String == "ecb")
        }
    }

    /// The shared 90-day ECB history (not in the repository; may be absent).
    static let sharedHistory = sharedFixtures("rates").appending(path: "ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml")

    /// The bytes of a first sync against an incremental one that brings one new, whole day: the
    /// sample upstream's own 5-day file, and the shared 90-day history when present.
    @Test(arguments: ["examples", "shared"])
    func anIncrementalAnswerOfOneNewDayMovesAFractionOfTheHistorysBytes(_ history: String) async throws {
        let path = "/rates/eurofxref-hist-90d.xml"
        let shared = history == "shared" ? try? Data(contentsOf: Self.sharedHistory) : nil
        if history == "shared", shared == nil { return }
        try await withRatesFeed { configuration, upstream in
            if let shared { try await upstream.put(path, Array(shared)) }
            configuration.rates = UpstreamResource(url: upstream.url("/sdmx" + path), format: .ecbSDMX)
        } _: { larder, upstream in
            let latest = try await larder.get("/rates")
            #expect(latest.status == 200)
            let date = latest.json?["date"] as? String
            let newest = try #require(date.flatMap { RateDate($0) })
            let next = try #require(newest.adding(days: 1))
            // The new day repeats the newest one's currencies, as a real publication would.
            let published = try #require(latest.json?["rates"] as? [String: Any])
            let rates = published.mapValues { "\($0)" }
            try await upstream.reviseSDMX(path, day: next.description, rates: rates, at: larder.clock.now + 10)
            larder.clock.advance(by: 30)
            #expect(try await larder.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            #expect(try await larder.get("/rates").text.contains(#""date":"\#(next)""#))
            let answers = try await upstream.sdmxAnswers(path)
            let (full, incremental) = (answers[0].bytes, answers[1].bytes)
            let days = (try await larder.get("/v1/1999-01-04..").json?["rates"] as? [String: Any])?.count ?? 0
            print("ecb-sdmx bytes (\(history), \(days - 1) days, \(rates.count) currencies): first sync \(full), "
                + "updatedAfter with one new day \(incremental), ratio \(Double(incremental) / Double(full))")
            #expect(incremental * (days - 1) < full * 3 / 2, "about one day's share of the history")
        }
    }

    /// Another Larder as the upstream, mirroring this suite's days or, when present, the shared 90-day ECB history.
    @Test(arguments: ["own", "shared"])
    func frankfurterMirrorsAnotherLarderAndAsksTheOpenRangeFromItsNewestDay(_ history: String) async throws {
        let shared = history == "shared" ? try? String(contentsOf: Self.sharedHistory, encoding: .utf8) : nil
        if history == "shared", shared == nil { return }
        try await withRatesFeed(shared ?? Self.feed) { primary, primaryUpstream in
            try await withLarder(clock: ManualClock(now: primary.clock.now)) { configuration, _ in
                configuration.rates = UpstreamResource(url: "http://127.0.0.1:\(primary.port)/v1/", format: .frankfurter)
                configuration.ratesTTL = .seconds(100)
                configuration.ratesSchedule = .ttl
            } _: { mirror, _ in
                let whole = "/v1/1999-01-04.."
                #expect(try await mirror.get("/rates").status == 200)
                let ours = try await mirror.get(whole)
                let theirs = try await primary.get(whole)
                #expect(ours.status == 200)
                #expect(ours.text == theirs.text, "the same days, the same digits")
                let days = (theirs.json?["rates"] as? [String: Any])?.keys.sorted() ?? []
                #expect(days.count == (shared == nil ? 3 : 62))

                // A new day on the primary reaches the mirror through `{newest}..`.
                let newest = try #require(days.last.flatMap { RateDate($0) })
                let next = try #require(newest.adding(days: 1)).description
                try await primaryUpstream.put(ratesFeedPath, ECB.document([(next, [("USD", "1.0830"), ("JPY", "161.30")])]))
                #expect(try await primary.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
                mirror.clock.advance(by: 30)
                let refresh = try await mirror.request("POST", "/rates/refresh")
                #expect(refresh.json?["outcome"] as? String == "updated")
                #expect(refresh.json?["days_changed"] as? Int == 1, "only the new day is written")
                #expect(try await mirror.get("/rates").text.contains(#""date":"\#(next)""#))
                #expect(try await mirror.get(whole).text == (try await primary.get(whole)).text, "the history stays")
            }
        }
    }
}
