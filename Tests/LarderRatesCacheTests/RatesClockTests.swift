import Foundation
import LarderApp
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderStore
import LarderTesting
import Testing

/// SPEC §4.11: no clock deletes a stored day. "Today" is the later of the clock and the newest instant
/// Larder recorded; a day outside the bounds is kept on disk, left out of answers, and served again
/// once the bounds hold it; the upstream's `Date` only shows a skew.
@Suite("Rates: a wrong clock deletes nothing (SPEC §4.11)", .serialized)
struct RatesClockTests {
    /// The right time: 2027-01-15T08:00:00Z, `ManualClock`'s default.
    static let rightNow = Date(timeIntervalSince1970: 1_800_000_000)
    static let stored = ["2026-11-18", "2026-11-19", "2026-11-20"]
    static let year: TimeInterval = 365 * 86_400

    /// The clock a restart runs at, and the day the upstream publishes meanwhile.
    enum WrongClock: String, CaseIterable, CustomTestStringConvertible {
        case yearBehind, epoch, yearAhead

        var now: Date {
            switch self {
            case .yearBehind: RatesClockTests.rightNow - RatesClockTests.year
            case .epoch: Date(timeIntervalSince1970: 0)
            case .yearAhead: RatesClockTests.rightNow + RatesClockTests.year
            }
        }

        /// After "today + 1" at the right time when the clock is ahead: only Larder's own instants admit it then.
        var published: String { self == .yearAhead ? "2027-06-01" : "2026-11-23" }

        var testDescription: String { rawValue }
    }

    static func feed(_ days: [String]) -> String {
        ECB.document(days.map { ($0, ECB.rates) })
    }

    /// The days `/rates/2026-01-01..` serves.
    static func servedDays(_ larder: TestLarder) async throws -> [String] {
        let series = try await larder.get("/rates/2026-01-01..")
        return ((series.json?["rates"] as? [String: Any])?.keys).map { $0.sorted() } ?? []
    }

    /// A v2 body's rows (an array of objects), nil when it is not one.
    static func rows(_ body: [UInt8]) -> [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]]
    }

    static func setClock(_ larder: TestLarder, to instant: Date) {
        larder.clock.advance(by: instant.timeIntervalSince(larder.clock.now))
    }

    @Test(arguments: WrongClock.allCases)
    func aWrongClockDeletesNoDayAndHidesNoneTheRecordedInstantsAllow(_ wrong: WrongClock) async throws {
        try await withRatesFeed(Self.feed(Self.stored)) { larder, upstream in
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-20")
            #expect(try await Self.servedDays(larder) == Self.stored)
            let all = Self.stored + [wrong.published]
            try await upstream.put(ratesFeedPath, Self.feed(all))
            Self.setClock(larder, to: wrong.now)
            try await larder.restart()
            // The stored instants say today is 2027-01-15 at least: nothing hidden, the new day not refused.
            let refresh = try await larder.request("POST", "/rates/refresh")
            #expect(refresh.status == 200, "\(wrong): \(refresh.text)")
            #expect(try await Self.servedDays(larder) == all, "\(wrong)")
            #expect(try await larder.get("/rates").json?["date"] as? String == wrong.published)

            // Back at the right time, with the upstream down: what is served comes from disk alone.
            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","status":503}"#)
            Self.setClock(larder, to: Self.rightNow)
            try await larder.restart()
            #expect(try await Self.servedDays(larder) == all, "\(wrong)")
            let latest = try await larder.get("/rates")
            #expect(latest.json?["date"] as? String == wrong.published)
            // Stored at 2028 by the clock ahead, but never a Last-Modified after now.
            #expect(latest.header("Last-Modified")?.contains("2028") == false, "\(String(describing: latest.header("Last-Modified")))")
            let status = try await larder.get("/status")
            let rates = (status.json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
            if wrong == .yearAhead {
                // A contact recorded a year ahead keeps nothing fresh, and is kept: it says what today is.
                #expect(rates?["stale"] as? Bool == true, "\(String(describing: rates))")
                #expect((rates?["fetched_at"] as? String)?.hasPrefix("2028-01-15") == true, "\(String(describing: rates))")
            }
        }
    }

    /// v1's and v2's lookbacks run from §4.11's "today", not the clock: restarted on a clock at 1970
    /// (the copy still fresh by it), `/v2/rate`, `/v2/rates` and `/v1/latest` answer the newest day.
    @Test func theLookbacksRunFromTheRecordedTodayOnAClockAt1970() async throws {
        // 2026-11-20T12:00:00Z: the newest day within Frankfurter's 14-day lookback of the contact.
        let contact = Date(timeIntervalSince1970: 1_795_176_000)
        try await withRatesFeed(Self.feed(Self.stored), now: contact) { larder, _ in
            #expect(try await larder.get("/v2/rate/EUR/USD").json?["date"] as? String == "2026-11-20")
            Self.setClock(larder, to: WrongClock.epoch.now)
            try await larder.restart()
            let pair = try await larder.get("/v2/rate/EUR/USD")
            #expect(pair.status == 200, "\(pair.text)")
            #expect(pair.json?["date"] as? String == "2026-11-20", "\(pair.text)")
            let rates = try await larder.get("/v2/rates")
            #expect(rates.status == 200, "\(rates.text)")
            let rows = try #require(Self.rows(rates.body), "\(rates.text)")
            #expect(!rows.isEmpty && rows.allSatisfy { $0["date"] as? String == "2026-11-20" }, "\(rates.text)")
            let quoted = try await larder.get("/v2/rates?quotes=USD")
            #expect(Self.rows(quoted.body)?.first?["date"] as? String == "2026-11-20", "\(quoted.text)")
            #expect(try await larder.get("/v1/latest").json?["date"] as? String == "2026-11-20")
            #expect(try await larder.get("/v1/latest?symbols=USD").json?["date"] as? String == "2026-11-20")
        }
    }

    @Test func aStoredDayIn9999IsKeptOnDiskNeverServedAndWedgesNothing() async throws {
        try await withRatesFeed(Self.feed(Self.stored)) { larder, upstream in
            // Answered once the first sync committed (a cold request waits for it).
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-20")
            await larder.stop()
            do {
                // What an earlier build let through: a day 9999-12-31, stored "now".
                let store = try Store(directory: larder.cacheDirectory, logger: quietLogger)
                let item = try #require(try await store.item(resource: RateSetRecord.resource, key: "feed"))
                let real = try #require(try await store.rateSets(dates: ["2026-11-20"])["2026-11-20"])
                var poisoned = real
                poisoned.date = "9999-12-31"
                try await store.commitRates([poisoned], item: item)
            }
            try await upstream.put(ratesFeedPath, Self.feed(Self.stored + ["2026-11-23"]))
            try await larder.start()
            #expect(try await larder.get("/ready").status == 200)
            // Not a newest day to regress from: the real next day lands (the start-up refresh, or this one).
            let refresh = try await larder.request("POST", "/rates/refresh")
            #expect(refresh.status == 200, "\(refresh.text)")
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-23")
            #expect(try await larder.get("/rates/9999-12-31").json?["date"] as? String == "2026-11-23")
            #expect(try await Self.servedDays(larder) == Self.stored + ["2026-11-23"])
            await larder.stop()
            let store = try Store(directory: larder.cacheDirectory, logger: quietLogger)
            #expect(try await store.rateSets(dates: ["9999-12-31"]).count == 1, "kept on disk")
        }
    }

    /// A stored day after "today + 1" is held out at start, and served as soon as the clock passes it,
    /// without a restart and without the upstream: the refresh attempt takes it back, a failed one too.
    @Test func aHeldOutDayIsServedOnceTheClockPassesItWithoutARestart() async throws {
        try await withRatesFeed(Self.feed(Self.stored)) { larder, upstream in
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-20")
            await larder.stop()
            let ahead = "2027-01-25"  // ten days after the clock, and after every instant recorded
            do {
                let store = try Store(directory: larder.cacheDirectory, logger: quietLogger)
                let item = try #require(try await store.item(resource: RateSetRecord.resource, key: "feed"))
                let real = try #require(try await store.rateSets(dates: ["2026-11-20"])["2026-11-20"])
                var later = real
                later.date = ahead
                var never = real
                never.date = "9999-12-31"
                try await store.commitRates([later, never], item: item)
            }
            try await larder.start()
            #expect(try await Self.servedDays(larder) == Self.stored)
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-20")
            // The start-up refresh ended: the POST below starts a refresh of its own, not joins that one.
            #expect(try await eventually {
                let refresher = larder.application?.rates?.refresher
                return refresher?.status.lastAttempt != nil && refresher?.isRefreshing == false
            })

            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","status":503}"#)
            larder.clock.advance(by: 9 * 86_400)  // 2027-01-24: "today + 1" reaches the 25th
            _ = try await larder.request("POST", "/rates/refresh")
            #expect(try await Self.servedDays(larder) == Self.stored + [ahead])
            let latest = try await larder.get("/rates")
            #expect(latest.json?["date"] as? String == ahead)
            #expect(try await larder.get("/rates/9999-12-31").json?["date"] as? String == ahead)
        }
    }

    /// The upstream's `Date` (the sample upstream's real clock) against Larder's clock, set `offset` ahead.
    @Test(arguments: [(30 * 86_400.0, true), (3_600.0, false)])
    func aSkewedUpstreamDateShowsInStatusAndMetrics(_ offset: TimeInterval, _ shows: Bool) async throws {
        let today = RateDate(containing: Date()).description
        try await withRatesFeed(Self.feed([today]), now: Date() + offset) { larder, upstream in
            #expect(try await larder.waitForFeedRequests(1, on: upstream))
            let status = try await larder.get("/status").json
            let skew = try #require(status?["clock_skew_seconds"] as? Int, "\(String(describing: status))")
            let metrics = try await larder.get("/metrics").text
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("larder_clock_skew_seconds ") }
            let gauge = try #require(line.flatMap { Double($0.split(separator: " ")[1]) }, "\(metrics)")
            if shows {
                #expect(abs(Double(skew) + offset) < 60, "\(skew)")
            } else {
                #expect(skew == 0)
            }
            #expect(gauge == Double(skew))
        }
    }
}
