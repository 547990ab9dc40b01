import Foundation
import LarderTesting
import Testing

/// SPEC §4.13: Frankfurter's lookbacks run from "today"; while the copy is stale, Larder's "today" is
/// the day of its last successful contact, so 30 days into an outage it answers what Frankfurter
/// answered then, marked stale, never `[]` or 404; a fresh copy looks back from the real day.
@Suite("Rates: offline, the answers of the last contact (SPEC §4.13)", .serialized)
struct RatesOfflineTests {
    /// Friday 2026-11-20, 12:00 UTC: the last contact. The newest stored day is the day before.
    static let contact = Date(timeIntervalSince1970: 1_795_176_000)
    static let feed = ECB.document(["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"].map { ($0, ECB.rates) })
    static let month: TimeInterval = 30 * 86_400
    static let ndjson = [("Accept", "application/x-ndjson")]

    /// A request 30 days after the contact (2026-12-20; yesterday is 2026-12-19), and the request whose
    /// answer it must equal, made on the day of the contact.
    struct Pair: Sendable, CustomTestStringConvertible {
        let later: String
        let then: String
        var headers: [(String, String)] = []

        var testDescription: String { later }
    }

    static let pairs: [Pair] = [
        Pair(later: "/v2/rates", then: "/v2/rates"),
        Pair(later: "/v2/rates", then: "/v2/rates", headers: ndjson),
        Pair(later: "/v2/rates.csv", then: "/v2/rates.csv"),
        Pair(later: "/v2/rate/EUR/USD", then: "/v2/rate/EUR/USD"),
        Pair(later: "/v2/rates?date=2026-12-19", then: "/v2/rates?date=2026-11-20"),
        Pair(later: "/v2/rates.csv?date=2027-06-01&quotes=USD", then: "/v2/rates.csv?date=2026-11-20&quotes=USD"),
        Pair(later: "/v2/rates?from=2026-11-17&quotes=USD,GBP", then: "/v2/rates?from=2026-11-17&quotes=USD,GBP"),
        Pair(later: "/v2/currencies", then: "/v2/currencies"),
        Pair(later: "/v1/latest", then: "/v1/latest"),
        Pair(later: "/v1/2026-11-19", then: "/v1/2026-11-19"),
        Pair(later: "/v1/2026-12-19", then: "/v1/2026-11-20"),
        Pair(later: "/v1/2026-12-19?from=USD&to=GBP", then: "/v1/2026-11-20?from=USD&to=GBP"),
        Pair(later: "/v1/2026-11-17..", then: "/v1/2026-11-17.."),
        Pair(later: "/v1/2026-12-01..", then: "/v1/2026-11-20.."),
    ]

    @Test func thirtyDaysIntoAnOutageEveryLookbackAnswersTheLastContactsData() async throws {
        try await withRatesFeed(Self.feed, now: Self.contact) { larder, upstream in
            var then: [String: TestResponse] = [:]
            for pair in Self.pairs {
                let answer = try await larder.get(pair.then, headers: pair.headers)
                #expect(answer.status == 200 && !["", "[]"].contains(answer.text), "\(pair.then): \(answer.text)")
                then[pair.later + "\(pair.headers.count)"] = answer
            }
            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","status":503}"#)
            larder.clock.advance(by: Self.month)
            #expect(try await larder.request("POST", "/rates/refresh").status == 502)
            for pair in Self.pairs {
                let answer = try await larder.get(pair.later, headers: pair.headers)
                let expected = try #require(then[pair.later + "\(pair.headers.count)"])
                #expect(answer.status == 200, "\(pair.later): \(answer.text)")
                #expect(answer.text == expected.text, "\(pair.later) answers what \(pair.then) answered at the contact")
                #expect(answer.header("Cache-Status")?.contains("; detail=") == true,
                        "\(pair.later): \(String(describing: answer.header("Cache-Status")))")
            }
        }
    }

    /// A date answered as the serving day changes once the upstream is back, so it is never `immutable`,
    /// even where a newer stored day (a provider east of UTC, already on the next day) makes it a past day.
    @Test func aDateAnsweredAsTheServingDayIsNeverImmutable() async throws {
        let feed = ECB.document(["2026-11-19", "2026-11-20", "2026-11-21"].map { ($0, ECB.rates) })
        try await withRatesFeed(feed, now: Self.contact) { larder, upstream in
            let past = try await larder.get("/v1/2026-11-20")
            #expect(past.header("Cache-Control") == "public, max-age=31536000, immutable", "a day before the newest")
            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","status":503}"#)
            larder.clock.advance(by: Self.month)
            #expect(try await larder.request("POST", "/rates/refresh").status == 502)
            for path in ["/v1/2026-12-19", "/v2/rates?date=2026-12-19", "/v2/rate/EUR/USD?date=2026-12-19",
                         "/v2/rates?from=2026-11-20&to=2026-12-19&quotes=USD"] {
                let answer = try await larder.get(path)
                #expect(answer.status == 200 && answer.text.contains(#""date":"2026-11-20""#), "\(path): \(answer.text)")
                #expect(answer.header("Cache-Control")?.contains("immutable") == false, "\(path)")
                #expect(answer.header("Cache-Status")?.contains("; detail=") == true, "\(path)")
            }
        }
    }

    /// A copy the upstream confirms (a 304) is fresh however old its newest day: Frankfurter's lookback
    /// from the real day, `[]` and 404 past 14 days, and no answer kept while offline leaks into it.
    @Test func aFreshCopyLooksBackFromTheRealDayAsFrankfurterDoes() async throws {
        try await withRatesFeed(Self.feed, now: Self.contact) { larder, upstream in
            #expect(try await larder.get("/v2/rates").text != "[]")
            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","status":503}"#)
            larder.clock.advance(by: Self.month)
            #expect(try await larder.request("POST", "/rates/refresh").status == 502)
            #expect(try await larder.get("/v1/2026-12-19").status == 200, "offline: answered as the contact's day")
            #expect(try await larder.get("/v2/rates?date=2026-12-19").text != "[]")

            try await upstream.clearFaults()
            #expect(try await larder.request("POST", "/rates/refresh").status == 200)
            #expect(try await upstream.requests(ratesFeedPath).statuses["304"] ?? 0 >= 1, "confirmed, not replaced")
            let latest = try await larder.get("/v2/rates")
            #expect(latest.status == 200 && latest.text == "[]", "\(latest.text)")
            #expect(latest.header("Cache-Status")?.contains("detail=") == false)
            #expect(try await larder.get("/v2/rate/EUR/USD").status == 404)
            #expect(try await larder.get("/v2/rates?date=2026-12-19").text == "[]")
            #expect(try await larder.get("/v1/2026-12-19").status == 404)
        }
    }
}
