import Foundation
import LarderApp
import LarderConfig
import LarderRates
import LarderRatesCache
import LarderTesting
import Testing

/// SPEC §4.12's cross-check: a new publication compared with the other rates upstreams, end to end.
@Suite("Rates: the cross-check of a new publication against the other upstreams", .serialized)
struct RatesCrossCheckTests {
    static let day = "2026-11-20"
    /// `ECB.rates` with USD at `usd` (and GBP's trailing zero dropped, which is the same number).
    static func feed(usd: String, date: String = day) -> String {
        ECB.document([(date, ECB.rates.map { code, rate in
            code == "USD" ? (code, usd) : code == "GBP" ? (code, "0.8437") : (code, rate)
        })])
    }

    static func mirrorPath(_ index: Int) -> String { "/rates/mirror\(index).xml" }

    /// Larder with `feeds[0]` as the primary (`ratesFeedPath`) and the others as further upstreams, in order.
    func withUpstreams<T: Sendable>(
        _ feeds: [String], _ body: (TestLarder, SampleUpstreamControl) async throws -> T
    ) async throws -> T {
        try await withRatesFeed(feeds[0]) { configuration, upstream in
            var list = [Upstream(url: upstream.url(ratesFeedPath), format: RatesFormat.ecb)]
            for (index, feed) in feeds.enumerated().dropFirst() {
                try await upstream.put(Self.mirrorPath(index), feed)
                list.append(Upstream(url: upstream.url(Self.mirrorPath(index)), format: .ecb))
            }
            configuration.rates = UpstreamResource(upstreams: list)
        } _: { larder, upstream in
            try await body(larder, upstream)
        }
    }

    /// `/status`'s `cross_check` once a check of `date` has ended.
    func crossCheck(of date: String = day, on larder: TestLarder) async throws -> [String: Any]? {
        var found: [String: Any]?
        _ = try await eventually {
            let rates = (try await larder.get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
            found = rates?["cross_check"] as? [String: Any]
            return found?["date"] as? String == date && larder.application?.rates?.isCrossChecking == false
        }
        return found
    }

    /// USD's value in `path`'s answer as written (the published digits, which a JSON parse would lose).
    func usd(_ larder: TestLarder, _ path: String = "/rates") async throws -> String? {
        let text = try await larder.get(path).text
        return text.firstMatch(of: /"USD":([0-9.]+)/).map { String($0.output.1) }
    }

    @Test func twoUpstreamsThatDisagreeKeepThePrimarysNumbersAndSaySo() async throws {
        try await withUpstreams([ECB.document([(Self.day, ECB.rates)]), Self.feed(usd: "1.0900")]) { larder, upstream in
            let check = try #require(try await crossCheck(on: larder))
            let primary = upstream.url(ratesFeedPath), mirror = upstream.url(Self.mirrorPath(1))
            #expect(check["outcome"] as? String == "disagreed")
            #expect(check["rewritten"] as? Bool == false)
            #expect(check["checked_at"] as? String == "2027-01-15T08:00:00Z")
            let asked = check["upstreams"] as? [[String: Any]] ?? []
            #expect(asked.map { $0["upstream"] as? String } == [primary, mirror])
            #expect(asked.map { $0["outcome"] as? String } == ["served", "disagreed"])
            let disagreements = check["disagreements"] as? [[String: Any]] ?? []
            #expect(disagreements.count == 1, "GBP 0.84370 and 0.8437 are one number")
            #expect(disagreements.first?["currency"] as? String == "USD")
            #expect(disagreements.first?["kept"] as? String == "1.0862")
            let values = disagreements.first?["values"] as? [[String: String]] ?? []
            #expect(values == [["upstream": primary, "value": "1.0862"], ["upstream": mirror, "value": "1.0900"]])
            #expect(disagreements.first?["odd_upstreams"] as? [String] == [])
            #expect(try await usd(larder) == "1.0862", "the primary's numbers are served")

            let metrics = try await larder.get("/metrics").text
            #expect(metrics.contains(#"larder_rates_cross_checks_total{outcome="disagreed"} 1"#))
            #expect(metrics.contains(#"larder_rates_cross_checks_total{outcome="agreed"} 0"#))
            #expect(metrics.contains("larder_rates_cross_check_disagreements_total 1"))
        }
    }

    @Test func threeUpstreamsOutvoteAnOddPrimaryAndTheMajorityIsServedAndStored() async throws {
        let majority = Self.feed(usd: "1.0862")
        try await withUpstreams([Self.feed(usd: "1.0800"), majority, majority]) { larder, upstream in
            let check = try #require(try await crossCheck(on: larder))
            let primary = upstream.url(ratesFeedPath)
            #expect(check["outcome"] as? String == "disagreed")
            #expect(check["rewritten"] as? Bool == true)
            #expect(check["odd_upstreams"] as? [String] == [primary])
            let disagreements = check["disagreements"] as? [[String: Any]] ?? []
            #expect(disagreements.map { $0["currency"] as? String } == ["USD"])
            #expect(disagreements.first?["kept"] as? String == "1.0862")
            #expect(disagreements.first?["odd_upstreams"] as? [String] == [primary])
            #expect((disagreements.first?["values"] as? [[String: String]])?.count == 3)
            #expect(try await usd(larder) == "1.0862", "the majority's value is served")
            #expect(try await usd(larder, "/rates/\(Self.day)") == "1.0862")

            // Written to the store; after a restart the primary's full answer repeats its outvoted value,
            // and the first refresh's check of the newest day puts the majority's back.
            try await larder.restart()
            #expect(try await larder.waitForFeedRequests(2, on: upstream))
            #expect(try await eventually { try await usd(larder) == "1.0862" })

            // A value the primary changed otherwise is its revision, and is served.
            try await upstream.put(ratesFeedPath, Self.feed(usd: "1.0850"))
            #expect(try await larder.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            #expect(try await usd(larder) == "1.0850")
        }
    }

    @Test func theMajoritysValueOutlastsTheOutvotedOneSentAgainButNotARevision() async throws {
        let majority = Self.feed(usd: "1.0862")
        try await withUpstreams([Self.feed(usd: "1.0800"), majority, majority]) { larder, upstream in
            _ = try #require(try await crossCheck(on: larder))
            #expect(try await usd(larder) == "1.0862")

            // The primary sends the day again (new bytes, a 200) with its outvoted value.
            try await upstream.put(ratesFeedPath, Self.feed(usd: "1.0800") + "\n")
            #expect(try await larder.request("POST", "/rates/refresh").status == 200)
            #expect(try await usd(larder) == "1.0862")
            #expect(try await usd(larder, "/rates/\(Self.day)") == "1.0862")

            // Another value is the primary's revision: served, and the majority's decision dropped.
            try await upstream.put(ratesFeedPath, Self.feed(usd: "1.0850"))
            #expect(try await larder.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            #expect(try await usd(larder) == "1.0850")
            try await upstream.put(ratesFeedPath, Self.feed(usd: "1.0800"))
            #expect(try await larder.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            #expect(try await usd(larder) == "1.0800")
            #expect(try await upstream.requests(Self.mirrorPath(1)).total == 1, "no new publication, no new check")
        }
    }

    @Test func upstreamsThatAgreeReportNoDisagreement() async throws {
        try await withUpstreams([ECB.document([(Self.day, ECB.rates)]), Self.feed(usd: "1.08620")]) { larder, _ in
            let check = try #require(try await crossCheck(on: larder))
            #expect(check["outcome"] as? String == "agreed")
            #expect((check["disagreements"] as? [Any])?.isEmpty == true)
            #expect((check["upstreams"] as? [[String: Any]])?.last?["outcome"] as? String == "agreed")
            let metrics = try await larder.get("/metrics").text
            #expect(metrics.contains(#"larder_rates_cross_checks_total{outcome="agreed"} 1"#))
            #expect(metrics.contains("larder_rates_cross_check_disagreements_total 0"))
        }
    }

    @Test func aPublicationIsCheckedOnceAndTheNextOneAgain() async throws {
        try await withUpstreams([ECB.document([(Self.day, ECB.rates)]), Self.feed(usd: "1.0900")]) { larder, upstream in
            _ = try #require(try await crossCheck(on: larder))
            #expect(try await upstream.requests(Self.mirrorPath(1)).total == 1)

            // The same day again (new bytes, so a 200): no new publication, no second check.
            try await upstream.put(ratesFeedPath, ECB.document([(Self.day, ECB.rates)]) + "\n")
            let again = try await larder.request("POST", "/rates/refresh")
            #expect(again.json?["outcome"] as? String == "unchanged")
            #expect(larder.application?.rates?.isCrossChecking == false, "a check would have started before the refresh returned")
            #expect(try await upstream.requests(Self.mirrorPath(1)).total == 1)

            // The next publication is checked.
            try await upstream.put(ratesFeedPath, ECB.document([("2026-11-23", ECB.rates)]))
            try await upstream.put(Self.mirrorPath(1), ECB.document([("2026-11-23", ECB.rates)]))
            let next = try await larder.request("POST", "/rates/refresh")
            #expect(next.json?["outcome"] as? String == "updated")
            let check = try #require(try await crossCheck(of: "2026-11-23", on: larder))
            #expect(check["outcome"] as? String == "agreed")
            #expect(try await upstream.requests(Self.mirrorPath(1)).total == 2)
        }
    }

    @Test func aNewerDayThatComesWhileACheckRunsIsCheckedNext() async throws {
        try await withUpstreams([ECB.document([(Self.day, ECB.rates)]), Self.feed(usd: "1.0900")]) { larder, upstream in
            _ = try #require(try await crossCheck(on: larder))
            // The mirror holds its answer to the next check a while; the next day lands meanwhile.
            try await upstream.fault(#"{"path":"\#(Self.mirrorPath(1))","delay_ms":5000,"times":1}"#)
            try await upstream.put(ratesFeedPath, ECB.document([("2026-11-23", ECB.rates)]))
            #expect(try await larder.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            #expect(try await eventually { try await upstream.requests(Self.mirrorPath(1)).inFlight == 1 })
            try await upstream.put(ratesFeedPath, ECB.document([("2026-11-24", ECB.rates)]))
            try await upstream.put(Self.mirrorPath(1), ECB.document([("2026-11-24", ECB.rates)]))
            #expect(try await larder.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            #expect(larder.application?.rates?.isCrossChecking == true, "the 23rd's check still waits for the mirror")
            let check = try #require(try await crossCheck(of: "2026-11-24", on: larder))
            #expect(check["outcome"] as? String == "agreed")
            #expect(try await upstream.requests(Self.mirrorPath(1)).total == 3)
        }
    }

    @Test func upstreamsThatCannotAnswerAreUnavailableAndChangeNothing() async throws {
        let older = ECB.document([("2026-11-19", ECB.rates)])
        try await withUpstreams([Self.feed(usd: "1.0800"), Self.feed(usd: "1.0862"), older]) { larder, upstream in
            // The first day's check (the primary against the first mirror, the second lacking the
            // day) has ended; the next day's meets a failing first mirror and a second one behind.
            _ = try #require(try await crossCheck(on: larder))
            try await upstream.fault(#"{"path":"\#(Self.mirrorPath(1))","status":503}"#)
            try await upstream.put(ratesFeedPath, Self.feed(usd: "1.0800", date: "2026-11-23"))
            #expect(try await larder.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            let check = try #require(try await crossCheck(of: "2026-11-23", on: larder))
            #expect(check["outcome"] as? String == "unavailable")
            #expect(check["rewritten"] as? Bool == false)
            #expect((check["disagreements"] as? [Any])?.isEmpty == true)
            let asked = check["upstreams"] as? [[String: Any]] ?? []
            // The one behind is named as such (SPEC §4.12), still no disagreement.
            #expect(asked.map { $0["outcome"] as? String } == ["served", "unavailable", "behind"])
            #expect((asked[1]["error"] as? String)?.contains("503") == true)
            #expect(asked[2]["error"] as? String == "its newest day is 2026-11-19, older than 2026-11-23")
            #expect(asked[2]["newest_day"] as? String == "2026-11-19")
            #expect(try await usd(larder) == "1.0800", "nothing changed")
            let metrics = try await larder.get("/metrics").text
            #expect(metrics.contains(#"larder_rates_cross_checks_total{outcome="unavailable"} 1"#))
        }
    }
}
