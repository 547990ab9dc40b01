import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderTesting
import Testing

private let primaryA = "/rates/primary-a.xml"
private let primaryB = "/rates/primary-b.xml"
private let origin = "/rates/origin.xml"
/// Friday 2026-11-27, 16:30 Europe/Berlin: that day's ECB publication is due.
private let fridayAfterThePublication = Date(timeIntervalSince1970: 1_795_793_400)
private let thursday = ECB.document([("2026-11-26", ECB.rates), ("2026-11-25", ECB.rates)])
private let friday = ECB.document([("2026-11-27", ECB.rates), ("2026-11-26", ECB.rates), ("2026-11-25", ECB.rates)])

/// Two primaries and the origin marked `;fallback`, as a replica of a tier is configured (SPEC §4.12, §4.14): the
/// origin is asked only when both primaries failed, and never cross-checked.
private func withTier<T: Sendable>(
    feeds: (a: String, b: String, origin: String), schedule: RatesSchedule = .ttl, crossCheck: Bool = true,
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withLarder(clock: ManualClock(now: fridayAfterThePublication)) { configuration, upstream in
        try await upstream.put(primaryA, feeds.a)
        try await upstream.put(primaryB, feeds.b)
        try await upstream.put(origin, feeds.origin)
        configuration.rates = UpstreamResource(upstreams: [
            Upstream(url: upstream.url(primaryA), format: .ecb), Upstream(url: upstream.url(primaryB), format: .ecb),
            Upstream(url: upstream.url(origin), format: .ecb, fallback: true),
        ])
        configuration.ratesTTL = .seconds(3600)
        configuration.ratesSchedule = schedule
        configuration.ratesCrossCheck = crossCheck
    } _: { larder, upstream in
        let started = try await eventually {
            larder.application?.rates?.refresher.status.lastAttempt != nil && larder.application?.rates?.refresher.isRefreshing == false
        }
        try #require(started)
        return try await body(larder, upstream)
    }
}

extension SampleUpstreamControl {
    /// Requests answered and in flight at each of the tier's three paths.
    fileprivate func tierCounts() async throws -> [Int] {
        var counts: [Int] = []
        for path in [primaryA, primaryB, origin] {
            let count = try await requests(path)
            counts.append(count.total + count.inFlight)
        }
        return counts
    }
}

@Suite("Rates: an upstream marked ;fallback (SPEC §4.12)")
struct FallbackUpstreamTests {
    @Test func theOriginIsNeitherAskedNorCrossCheckedWhileAPrimaryAnswers() async throws {
        try await withTier(feeds: (friday, friday, friday)) { larder, upstream in
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-27")
            // The new publication's cross-check compares the primaries with each other, and only them.
            var check: [String: Any]?
            let ended = try await eventually {
                let rates = (try await larder.get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
                check = rates?["cross_check"] as? [String: Any]
                return check?["date"] as? String == "2026-11-27" && larder.application?.rates?.isCrossChecking == false
            }
            #expect(ended)
            #expect(check?["outcome"] as? String == "agreed")
            #expect((check?["upstreams"] as? [[String: Any]])?.count == 2, "primary-a and primary-b: \(String(describing: check))")
            #expect(try await upstream.tierCounts() == [1, 1, 0], "the origin never asked")
        }
    }

    @Test func theOriginIsAskedWhenBothPrimariesFailAndOnlyThen() async throws {
        try await withTier(feeds: (thursday, thursday, thursday), crossCheck: false) { larder, upstream in
            try await upstream.put(origin, friday)
            try await upstream.resetRequests()
            try await upstream.fault(#"{"path":"\#(primaryA)","status":503}"#)
            #expect(try await larder.post("/rates/refresh").status == 200)
            #expect(try await upstream.tierCounts() == [1, 1, 0], "primary-b answered: the origin not asked")

            try await upstream.fault(#"{"path":"\#(primaryB)","status":503}"#)
            larder.clock.advance(by: 3600)
            let refreshed = try await larder.post("/rates/refresh")
            #expect(refreshed.json?["date"] as? String == "2026-11-27", "the origin's copy: \(refreshed.text)")
            #expect(try await upstream.tierCounts() == [2, 2, 1])
        }
    }

    @Test func primariesBehindTheCalendarDoNotSendTheRefreshToTheOrigin() async throws {
        // Both primaries lack Friday's due publication; the origin has it, yet a tier asks it only when they fail.
        try await withTier(feeds: (thursday, thursday, friday), schedule: .ecb, crossCheck: false) { (larder: TestLarder, upstream: SampleUpstreamControl) async throws in
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-26")
            #expect(try await upstream.tierCounts() == [1, 1, 0], "both primaries asked, being behind; the origin not")
        }
    }
}
