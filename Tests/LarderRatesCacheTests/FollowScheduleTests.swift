import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderTesting
import Testing

/// `--rates-schedule follow` (SPEC §4.14): a replica revalidates when its parent Larder's `max-age` runs out, within
/// 1 s and 60 s, rather than a whole TTL behind it.
@Suite("Rates: a replica follows its parent's max-age")
struct FollowScheduleTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A primary on the sample feed with `ttl`, and a replica of its `/v1/` on `--rates-schedule follow`.
    private func withReplica(
        primaryTTL: Duration, _ body: (_ primary: TestLarder, _ feed: SampleUpstreamControl, _ replica: TestLarder) async throws -> Void
    ) async throws {
        try await withRatesFeed(ttl: primaryTTL, now: Self.now) { primary, feed in
            try await withLarder(clock: ManualClock(now: Self.now)) { configuration, _ in
                configuration.rates = UpstreamResource(url: "http://127.0.0.1:\(primary.port)/v1/", format: .frankfurter)
                configuration.ratesSchedule = .follow
                configuration.ratesTTL = .seconds(86_400)
            } _: { replica, _ in
                #expect(try await eventually { try await replica.get("/rates").status == 200 })
                try await body(primary, feed, replica)
            }
        }
    }

    private static func rates(_ larder: TestLarder) async throws -> [String: Any]? {
        (try await larder.get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
    }

    @Test func aNewDayOnThePrimaryReachesTheReplicaWhenThePrimarysMaxAgeRunsOut() async throws {
        try await withReplica(primaryTTL: .seconds(5)) { primary, feed, replica in
            let status = try await Self.rates(replica)
            #expect(status?["schedule"] as? String == "follow")
            #expect(status?["ttl_seconds"] as? Int == 5, "the primary's max-age=5")
            #expect(try await replica.get("/rates").header("Cache-Control")?.contains("max-age=5") == true)

            try await feed.put(ratesFeedPath, ECB.document([("2026-11-23", ECB.rates), ("2026-11-20", ECB.rates)]))
            #expect(try await primary.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
            // No request to the replica: its scheduler asks the primary once the 5 s are up.
            replica.clock.advance(by: 5)
            let followed = try await eventually(timeout: .seconds(30)) {
                try await replica.get("/rates").json?["date"] as? String == "2026-11-23"
            }
            #expect(followed)
        }
    }

    @Test func thePrimarysMaxAgeIsBoundedToAMinute() async throws {
        try await withReplica(primaryTTL: .seconds(3600)) { (_: TestLarder, _: SampleUpstreamControl, replica: TestLarder) async throws in
            #expect(try await Self.rates(replica)?["ttl_seconds"] as? Int == 60, "never a minute behind")
        }
    }

    @Test func theBoundsOfOneWait() {
        let schedule = FollowSchedule()
        #expect(schedule.current == 60, "before the parent answered")
        schedule.follow(0)
        #expect(schedule.current == 1, "max-age=0 or no-cache: once a second, no more")
        schedule.follow(17)
        #expect(schedule.expiry(fetchedAt: Self.now) == Self.now.addingTimeInterval(17))
        #expect(schedule.nextContact(fetchedAt: Self.now) == Self.now.addingTimeInterval(17))
        schedule.follow(nil)
        #expect(schedule.current == 60, "no max-age: the longest wait")
    }
}
