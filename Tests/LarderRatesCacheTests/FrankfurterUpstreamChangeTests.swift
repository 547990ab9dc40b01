import Foundation
import LarderConfig
import LarderRates
import LarderStore
import LarderTesting
import Testing

/// A changed `--rates-url` whose new upstream is a Frankfurter v2 root (SPEC §4.9): the previous copy is served,
/// stale (`detail=upstream-changed`), while the new mirror syncs beside it, across restarts, and is swapped in
/// whole once every provider is complete.
@Suite("Rates: a new upstream's Frankfurter mirror staged and swapped in whole")
struct FrankfurterUpstreamChangeTests {
    static let feedPath = "/rates/old-feed.xml"
    /// The previous upstream's days: a Sunday the mirror's ECB rows lack, and digits the mirror's differ from.
    static let oldFeed = ECB.document([
        ("2026-11-22", [("USD", "9.9999"), ("JPY", "99.99")]),
        ("2026-11-20", [("USD", "8.8888"), ("JPY", "88.88")]),
    ])

    static func staged(_ larder: TestLarder) async throws -> (live: Int, staged: Int) {
        let store = try Store(directory: larder.cacheDirectory, logger: quietLogger)
        return (try await store.frankfurterRowCount(), try await store.frankfurterRowCount(in: .staged))
    }

    /// How many providers `/v2/providers` lists.
    static func providers(_ larder: TestLarder) async throws -> Int? {
        ((try? JSONSerialization.jsonObject(with: Data(try await larder.get("/v2/providers").body))) as? [Any])?.count
    }

    @Test func theOldCopyIsServedStaleUntilTheNewMirrorIsCompleteThenReplacedWhole() async throws {
        try await withLarder(clock: ManualClock(now: FrankfurterMirrorTests.today)) { configuration, upstream in
            try await upstream.put(Self.feedPath, Self.oldFeed)
            configuration.rates = UpstreamResource(url: upstream.url(Self.feedPath), format: .ecb)
            configuration.ratesSchedule = .ttl
            configuration.ratesTTL = .seconds(86_400)
        } _: { larder, upstream in
            #expect(try await eventually { try await larder.get("/rates").text.contains(#""date":"2026-11-22""#) })

            // The new upstream, slowed so its sync can be caught halfway.
            try await upstream.fault(#"{"path":"/v2/rates","delay_ms":150}"#)
            try await larder.restart { $0.rates = UpstreamResource(url: upstream.url("/"), format: .frankfurter) }
            let halfway = try await eventually(timeout: .seconds(60), every: .milliseconds(20)) {
                try await Self.staged(larder).staged > 0
            }
            #expect(halfway, "rows staged")
            // Halfway, the new upstream refuses for an hour: the refresh stops there, failed.
            try await upstream.clearFaults()
            try await upstream.fault(#"{"path":"/v2/rates","status":429,"headers":{"Retry-After":"3600"}}"#)
            #expect(try await eventually(timeout: .seconds(60), every: .milliseconds(20)) {
                try await FrankfurterMirrorTests.lastRatesError(larder)?.contains("429") == true
            })
            let during = try await larder.get("/rates")
            #expect(during.json?["date"] as? String == "2026-11-22", "the previous copy served")
            #expect(during.header("Cache-Status")?.hasSuffix("; detail=upstream-changed") == true)
            #expect(try await larder.get("/v1/2026-11-20?symbols=USD").text.contains("8.8888"))
            #expect(try await Self.providers(larder) == 1, "the previous copy's one provider")
            await larder.stop()
            let stopped = try await Self.staged(larder)
            #expect(stopped.live == 0, "nothing of the new upstream served before it is complete")
            #expect(stopped.staged > 0)

            // After a restart the staged rows are kept and the sync continues; once complete, one swap.
            try await upstream.clearFaults()
            try await upstream.resetRequests()
            try await larder.start()
            let swapped = try await eventually(timeout: .seconds(120), every: .milliseconds(50)) {
                try await larder.get("/rates").json?["date"] as? String == "2026-11-27"
            }
            #expect(swapped)
            let after = try await larder.get("/rates")
            #expect(after.header("Cache-Status")?.contains("upstream-changed") == false)
            #expect(try await upstream.requests("/v2/rates").total < FrankfurterMirrorTests.probes + FrankfurterMirrorTests.queries,
                    "the staged windows not asked again")
            #expect(try await Self.providers(larder) == 8)
            // The previous days are gone whole: the Sunday is answered as Frankfurter answers it, from the Friday.
            let sunday = try await larder.get("/v1/2026-11-22?symbols=USD").json
            #expect(sunday?["date"] as? String == "2026-11-20")
            #expect(try await larder.get("/v1/2026-11-20?symbols=USD").text.contains("8.8888") == false)
            let counts = try await Self.staged(larder)
            #expect(counts.staged == 0 && counts.live == 4463, "the staged tables became the served ones")

            // The switch is over: a restart serves the mirror fresh.
            try await larder.restart()
            #expect(try await larder.get("/rates").header("Cache-Status")?.contains("upstream-changed") == false)
            #expect(try await Self.providers(larder) == 8)
        }
    }
}
