import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderTesting
import Testing

let primaryPath = "/rates/primary.xml"
let secondaryPath = "/rates/secondary.xml"

/// `withLarder` with two rates upstreams on the sample upstream (the primary at `primary`, a path or a
/// whole URL, and the secondary at `secondaryPath`), on a 1 h TTL (or `schedule`) with the clock at
/// `now`, so only the test's refreshes ask them; returns once the start-up refresh ended.
func withTwoUpstreams<T: Sendable>(
    primary: String = primaryPath, primaryFeed: String = ECB.document([("2026-11-20", ECB.rates)]),
    secondaryFeed: String = ECB.document([("2026-11-20", ECB.rates)]), upstreamTimeout: Duration = .seconds(10),
    now: Date = Date(timeIntervalSince1970: 1_800_000_000), schedule: RatesSchedule = .ttl, crossCheck: Bool = false,
    before: @escaping @Sendable (SampleUpstreamControl) async throws -> Void = { _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withLarder(clock: ManualClock(now: now), upstreamTimeout: upstreamTimeout) {
        configuration, upstream in
        try await upstream.put(primaryPath, primaryFeed)
        try await upstream.put(secondaryPath, secondaryFeed)
        try await before(upstream)
        let primaryURL = primary.hasPrefix("/") ? upstream.url(primary) : primary
        configuration.rates = UpstreamResource(upstreams: [
            Upstream(url: primaryURL, format: .auto), Upstream(url: upstream.url(secondaryPath), format: .auto),
        ])
        configuration.ratesTTL = .seconds(3600)
        // Off unless asked: these tests count one refresh's requests; the cross-check's have tests of their own.
        configuration.ratesCrossCheck = crossCheck
        configuration.ratesSchedule = schedule
    } _: { larder, upstream in
        let started = try await eventually {
            let status = larder.application?.rates?.refresher.status
            return status?.lastAttempt != nil && larder.application?.rates?.refresher.isRefreshing == false
        }
        try #require(started)
        return try await body(larder, upstream)
    }
}

extension TestLarder {
    /// One refresh of the rates, as the scheduler or a POST runs it.
    fileprivate func refreshRates() async -> Result<RatesRefreshOutcome, RefreshError>? {
        await application?.rates?.refresher.refresh()
    }

    /// The `date` `/rates` answers.
    fileprivate func ratesDate() async throws -> String? {
        try await get("/rates").json?["date"] as? String
    }

    /// `/status`'s rates upstreams.
    func upstreams() async throws -> [[String: Any]] {
        let rates = (try await get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
        return rates?["upstreams"] as? [[String: Any]] ?? []
    }
}

extension SampleUpstreamControl {
    /// Requests for each, answered or still held (a hang past the timeout is answered later).
    func counts() async throws -> (primary: Int, secondary: Int) {
        let (primary, secondary) = (try await requests(primaryPath), try await requests(secondaryPath))
        return (primary.total + primary.inFlight, secondary.total + secondary.inFlight)
    }
}

@Suite("Rates failover: the next upstream serves within the same refresh (SPEC §4.12)")
struct RatesFailoverTests {
    /// How the primary fails after it served the first copy.
    enum PrimaryFault: String, CaseIterable, Sendable {
        case errorStatus, slowPastTheTimeout, garbage, olderDay
    }

    @Test(arguments: PrimaryFault.allCases)
    func aFailingPrimaryHandsTheRefreshToTheSecondary(fault: PrimaryFault) async throws {
        try await withTwoUpstreams(upstreamTimeout: .seconds(1)) { larder, upstream in
            #expect(try await larder.ratesDate() == "2026-11-20")
            #expect(try await upstream.counts() == (1, 0))
            try await upstream.put(secondaryPath, ECB.document([("2026-11-23", ECB.rates), ("2026-11-20", ECB.rates)]))
            switch fault {
            case .errorStatus: try await upstream.fault(#"{"path":"\#(primaryPath)","status":503}"#)
            case .slowPastTheTimeout: try await upstream.fault(#"{"path":"\#(primaryPath)","delay_ms":4000}"#)
            case .garbage:
                try await upstream.fault(#"{"path":"\#(primaryPath)","body":"<html>oops</html>","content_type":"text/html"}"#)
            case .olderDay: try await upstream.put(primaryPath, ECB.document([("2026-11-19", ECB.rates)]))
            }
            let result = await larder.refreshRates()
            guard case .success(let outcome) = result else {
                Issue.record("the refresh failed: \(String(describing: result))")
                return
            }
            #expect(outcome.kind == .updated)
            // One refresh: the primary asked once, then the secondary once.
            #expect(try await upstream.counts() == (2, 1))
            #expect(try await larder.ratesDate() == "2026-11-23")
            let upstreams = try await larder.upstreams()
            #expect(upstreams.map { $0["state"] as? String } == ["open", "closed"])
            #expect(upstreams.first?["consecutive_failures"] as? Int == 1)
            #expect((upstreams.first?["last_error"] as? [String: Any])?["kind"] != nil)
            #expect(upstreams.last?["served"] as? String == "2026-11-23 (2 days)")
        }
    }

    @Test func aRefusedPrimaryIsSkippedAndNoCredentialsShow() async throws {
        let dead = "http://reader:s3cret@127.0.0.1:1/rates/feed.xml"
        try await withTwoUpstreams(primary: dead) { larder, upstream in
            #expect(try await larder.ratesDate() == "2026-11-20")
            #expect(try await upstream.counts().secondary == 1)
            let upstreams = try await larder.upstreams()
            #expect(upstreams.count == 2)
            #expect(upstreams.first?["state"] as? String == "open")
            #expect((upstreams.first?["last_error"] as? [String: Any])?["kind"] as? String == "upstream-unreachable")
            #expect(upstreams.first?["open_until"] is String)
            #expect(upstreams.last?["format"] as? String == "auto")
            let status = try await larder.get("/status").text
            let metrics = try await larder.get("/metrics").text
            let page = try await larder.get("/", headers: [("Accept", "text/html")]).text
            for text in [status, metrics, page] { #expect(!text.contains("s3cret")) }
            let label = try #require(upstreams.first?["label"] as? String)
            #expect(metrics.contains(#"larder_upstream_up{resource="rates",upstream="\#(label)"} 0"#))
            #expect(metrics.contains(#"larder_upstream_up{resource="rates",upstream="\#(upstream.url(secondaryPath))"} 1"#))
            #expect(metrics.contains(
                #"larder_upstream_fetches_by_upstream_total{resource="rates",upstream="\#(label)",outcome="error"} 1"#))
        }
    }

    /// One rule with the documents' (`UpstreamFailover.combined`): the first asked names the kind.
    @Test func whenBothFailTheFirstAskedNamesTheKindAndEachReasonIsGiven() async throws {
        try await withTwoUpstreams(upstreamTimeout: .seconds(1)) { larder, upstream in
            try await upstream.fault(#"{"path":"\#(primaryPath)","delay_ms":3000}"#)
            try await upstream.fault(#"{"path":"\#(secondaryPath)","status":503}"#)
            guard case .failure(let error) = await larder.refreshRates() else {
                Issue.record("the refresh did not fail")
                return
            }
            #expect(error.kind == .unreachable, "the primary's, not the secondary's upstream-error: \(error)")
            #expect(error.message.hasPrefix("every upstream failed: "), "\(error.message)")
            #expect(error.message.contains(primaryPath) && error.message.contains(secondaryPath), "\(error.message)")
        }
    }

    @Test func theBreakerAsksADeadPrimaryOncePerWindowAndTakesItBackWhenItRecovers() async throws {
        try await withTwoUpstreams(before: { upstream in
            try await upstream.fault(#"{"path":"\#(primaryPath)","status":503}"#)
        }) { larder, upstream in
            #expect(try await upstream.counts() == (1, 1))
            // Inside the 30 s window: the primary is not asked again.
            for _ in 1...3 { _ = await larder.refreshRates() }
            #expect(try await upstream.counts() == (1, 4))
            // Past it: one half-open attempt, which fails and opens the breaker for 60 s.
            larder.clock.advance(by: 31)
            _ = await larder.refreshRates()
            #expect(try await upstream.counts() == (2, 5))
            // The primary recovers with a newer day; inside its 60 s window it is not asked yet.
            try await upstream.clearFaults()
            try await upstream.put(primaryPath, ECB.document([("2026-11-23", ECB.rates), ("2026-11-20", ECB.rates)]))
            larder.clock.advance(by: 31)
            _ = await larder.refreshRates()
            #expect(try await upstream.counts() == (2, 6))
            #expect(try await larder.ratesDate() == "2026-11-20")
            // Past the window: asked first again, and used; the secondary is not asked.
            larder.clock.advance(by: 30)
            _ = await larder.refreshRates()
            #expect(try await upstream.counts() == (3, 6))
            #expect(try await larder.ratesDate() == "2026-11-23")
            #expect(try await larder.upstreams().map { $0["state"] as? String } == ["closed", "closed"])
        }
    }

    @Test func everyUpstreamDownServesTheCopyAsToday() async throws {
        try await withTwoUpstreams { larder, upstream in
            try await upstream.fault(#"{"path":"\#(primaryPath)","status":503}"#)
            try await upstream.fault(#"{"path":"\#(secondaryPath)","status":502}"#)
            let result = await larder.refreshRates()
            guard case .failure(let error) = result else {
                Issue.record("the refresh did not fail: \(String(describing: result))")
                return
            }
            #expect(error.message.contains(upstream.url(primaryPath)))
            #expect(error.message.contains(upstream.url(secondaryPath)))
            #expect(try await upstream.counts() == (2, 1))
            let answer = try await larder.get("/rates")
            #expect(answer.status == 200)
            #expect(answer.json?["date"] as? String == "2026-11-20")
            #expect(try await larder.upstreams().map { $0["state"] as? String } == ["open", "open"])
        }
    }

    @Test func aSecondaryBehindNeverReplacesNewerDays() async throws {
        try await withTwoUpstreams(
            primaryFeed: ECB.document([("2026-11-23", ECB.rates)]),
            secondaryFeed: ECB.document([("2026-11-20", [("USD", "9.9999")])])
        ) { larder, upstream in
            try await upstream.fault(#"{"path":"\#(primaryPath)","status":503}"#)
            let result = await larder.refreshRates()
            guard case .failure = result else {
                Issue.record("an older secondary was taken: \(String(describing: result))")
                return
            }
            #expect(try await upstream.counts() == (2, 1))
            #expect(try await larder.ratesDate() == "2026-11-23")
        }
    }

    @Test func theListIsOneUpstreamAsASet() async throws {
        try await withTwoUpstreams { larder, upstream in
            let (primary, secondary) = (upstream.url(primaryPath), upstream.url(secondaryPath))
            // Reordered: the same set, so the copy stays fresh and is not replaced.
            try await larder.restart {
                $0.rates = UpstreamResource(upstreams: [
                    Upstream(url: secondary, format: .auto), Upstream(url: primary, format: .auto),
                ])
            }
            let reordered = try await larder.get("/rates")
            #expect(reordered.header("Cache-Status")?.contains("upstream-changed") == false)
            // One of them dropped: a change of upstream, the copy served stale until the new list delivers.
            try await upstream.fault(#"{"path":"\#(primaryPath)","status":503}"#)
            try await larder.restart { $0.rates = UpstreamResource(url: primary, format: .auto) }
            #expect(try await eventually {
                try await upstream.requests(primaryPath).total >= 2 && larder.application?.rates?.refresher.isRefreshing == false
            })
            let changed = try await larder.get("/rates")
            #expect(changed.header("Cache-Status")?.hasSuffix("; detail=upstream-changed") == true)
            #expect(changed.json?["date"] as? String == "2026-11-20")
        }
    }

    @Test func validatorsGoOnlyToTheUpstreamThatSentThem() async throws {
        // Both serve the same bytes, so the same strong ETag: the primary's sent to the secondary would get a 304.
        try await withTwoUpstreams { larder, upstream in
            try await upstream.fault(#"{"path":"\#(primaryPath)","status":503}"#)
            _ = await larder.refreshRates()
            #expect(try await upstream.requests(secondaryPath).statuses == ["200": 1], "asked without the primary's ETag")
            // The secondary's own validators are stored now: the next refresh revalidates with them.
            _ = await larder.refreshRates()
            #expect(try await upstream.requests(secondaryPath).statuses == ["200": 1, "304": 1])
        }
    }
}
