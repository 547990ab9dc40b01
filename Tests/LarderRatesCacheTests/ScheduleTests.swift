import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
@testable import LarderRatesCache
import LarderServing
import LarderTesting
import Synchronization
import Testing

/// SPEC §4.10 on an injected clock: fresh until the ECB's next expected publication, polled from
/// then until the new day lands or the cutoff passes, and no upstream request on weekends.
@Suite("Rates: freshness that follows the ECB's publication calendar", .serialized)
struct ScheduleTests {
    /// An instant written `2026-11-20T16:00:00Z`.
    static func utc(_ text: String) -> Date {
        var components = DateComponents()
        let parts = text.split { "-T:Z".contains($0) }.map { Int($0)! }
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        (components.hour, components.minute, components.second) = (parts[3], parts[4], parts[5])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)!
    }

    static func schedule(latest: String) -> ECBSchedule {
        ECBSchedule(
            active: true, latest: RateDate(latest), pollInterval: .seconds(600), ttl: .seconds(3600),
            events: NoCacheEvents())
    }

    @Test(arguments: [
        // Friday 17:00 CET, after Friday's publication: fresh until Monday 16:00 CET + 5 min.
        ("2026-11-20", "2026-11-20T16:00:00Z", "2026-11-23T15:05:00Z"),
        // The Thursday before Good Friday 2027: Friday and Easter Monday are closed; CEST since Sunday.
        ("2027-03-25", "2027-03-25T16:00:00Z", "2027-03-30T14:05:00Z"),
        // The Sundays of the clock changes: the Monday after is in the new offset.
        ("2026-03-27", "2026-03-27T16:00:00Z", "2026-03-30T14:05:00Z"),
        ("2026-10-23", "2026-10-23T15:00:00Z", "2026-10-26T15:05:00Z"),
        // Christmas and New Year.
        ("2026-12-24", "2026-12-24T16:00:00Z", "2026-12-28T15:05:00Z"),
        ("2026-12-31", "2026-12-31T16:00:00Z", "2027-01-04T15:05:00Z"),
    ])
    func freshUntilTheNextExpectedPublication(latest: String, fetched: String, expected: String) {
        let schedule = Self.schedule(latest: latest)
        let fetchedAt = Self.utc(fetched)
        #expect(schedule.expiry(fetchedAt: fetchedAt) == Self.utc(expected))
        #expect(schedule.nextContact(fetchedAt: fetchedAt) == Self.utc(expected), "no contact before it")
        #expect(schedule.report.nextPublication == Self.utc(expected))
    }

    @Test func aLatePublicationIsPolledUntilTheCutoffThenCountedMissed() {
        let events = CountingEvents()
        let schedule = ECBSchedule(
            active: true, latest: RateDate("2026-11-20"), pollInterval: .seconds(600), ttl: .seconds(3600), events: events)
        // Monday 16:05 CET: expected, not there (a 304): poll again in 10 minutes, stale meanwhile.
        let expected = Self.utc("2026-11-23T15:05:00Z")
        schedule.settle(fetchedAt: expected)
        #expect(schedule.expiry(fetchedAt: expected) == expected)
        #expect(schedule.nextContact(fetchedAt: expected) == Self.utc("2026-11-23T15:15:00Z"))
        // 17:55: the next poll is at the 18:00 cutoff, not 18:05.
        #expect(schedule.nextContact(fetchedAt: Self.utc("2026-11-23T16:55:00Z")) == Self.utc("2026-11-23T17:00:00Z"))
        #expect(schedule.report.missed == 0)
        // The contact at the cutoff still finds Friday's day: Monday's publication is missed.
        schedule.settle(fetchedAt: Self.utc("2026-11-23T17:00:00Z"))
        #expect(schedule.report.missed == 1 && events.missed.value == 1)
        #expect(schedule.expiry(fetchedAt: Self.utc("2026-11-23T17:00:00Z")) == Self.utc("2026-11-24T15:05:00Z"))
        // Tuesday's publication lands late, at 16:35: fresh until Wednesday's.
        schedule.observe(latest: RateDate("2026-11-24"))
        schedule.settle(fetchedAt: Self.utc("2026-11-24T15:35:00Z"))
        #expect(schedule.report.missed == 1)
        #expect(schedule.expiry(fetchedAt: Self.utc("2026-11-24T15:35:00Z")) == Self.utc("2026-11-25T15:05:00Z"))
    }

    @Test func aStartAfterDaysAwayCountsOneMissAndAwaitsTheNextPublication() {
        let schedule = Self.schedule(latest: "2026-11-18")
        // Tuesday 10:00 CET with Wednesday's day still the newest the upstream has.
        schedule.settle(fetchedAt: Self.utc("2026-11-24T09:00:00Z"))
        #expect(schedule.report.missed == 1)
        #expect(schedule.report.nextPublication == Self.utc("2026-11-24T15:05:00Z"))
    }

    @Test func untilTheFeedIsKnownToBeTheECBsItIsAPlainTTL() {
        let schedule = ECBSchedule(
            active: false, latest: RateDate("2026-11-20"), pollInterval: .seconds(600), ttl: .seconds(3600),
            events: NoCacheEvents())
        let fetchedAt = Self.utc("2026-11-20T16:00:00Z")
        #expect(schedule.expiry(fetchedAt: fetchedAt) == fetchedAt + 3600)
        schedule.observe(latest: RateDate("2026-11-20"), isECB: true)
        #expect(schedule.expiry(fetchedAt: fetchedAt) == Self.utc("2026-11-23T15:05:00Z"))
    }

    /// The whole path: the served headers, `/status`, no request over a weekend, the Monday polls,
    /// the new day landing, and a missed publication in `/status` and `/metrics`.
    @Test func servedHeadersFollowTheCalendarAndWeekendsCostNoRequest() async throws {
        let friday = ECB.document([("2026-11-20", ECB.rates)])
        try await withRatesFeed(friday, now: Self.utc("2026-11-20T16:00:00Z")) { configuration, _ in
            configuration.ratesSchedule = .auto
        } _: { larder, upstream in
            let first = try await larder.get("/rates")
            #expect(try await larder.waitForFeedRequests(1, on: upstream))
            let status = try await larder.get("/status")
            // Saturday and Sunday: answers from the cache, fresh, and nothing asked upstream.
            larder.clock.advance(by: 86_400)
            let saturday = try await larder.get("/rates")
            larder.clock.advance(by: 86_400)
            let sunday = try await larder.get("/latest")
            let weekendRequests = try await upstream.requests(ratesFeedPath).total
            // Monday 16:05 CET: the expected publication; the upstream still has Friday's (a 304).
            larder.clock.advance(by: Self.utc("2026-11-23T15:05:00Z").timeIntervalSince(larder.clock.now))
            #expect(try await larder.waitForFeedRequests(2, on: upstream))
            let late = try await larder.get("/rates")
            // 16:15: polled again, and this time Monday's day is there.
            try await upstream.put(ratesFeedPath, ECB.document([("2026-11-20", ECB.rates), ("2026-11-23", ECB.rates)]))
            larder.clock.advance(by: 600)
            #expect(try await larder.waitForFeedRequests(3, on: upstream))
            let monday = try await larder.get("/rates")
            // Tuesday: nothing new by 18:00 CET, so the publication counts as missed.
            larder.clock.advance(by: Self.utc("2026-11-24T15:05:00Z").timeIntervalSince(larder.clock.now))
            for _ in 0..<12 {
                larder.clock.advance(by: 600)
            }
            var missed: Int?
            #expect(try await eventually {
                let rates = (try await larder.get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
                missed = rates?["publications_missed"] as? Int
                return missed == 1
            })
            let metrics = try await larder.get("/metrics")

            #expect(first.header("Cache-Control") == "public, max-age=255900, stale-while-revalidate=100, stale-if-error=2400", "Monday 15:05Z − Friday 16:00Z")
            #expect(first.header("Expires") == "Mon, 23 Nov 2026 15:05:00 GMT")
            #expect(first.header("Cache-Status") == "Larder; hit; ttl=255900")
            let rates = (status.json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
            #expect(rates?["schedule"] as? String == "ecb")
            #expect(rates?["next_publication"] as? String == "2026-11-23T15:05:00Z")
            #expect(rates?["publications_missed"] as? Int == 0)
            #expect(saturday.header("Cache-Control") == "public, max-age=169500, stale-while-revalidate=100, stale-if-error=2400")
            #expect(sunday.header("Cache-Status") == "Larder; hit; ttl=83100")
            #expect(weekendRequests == 1, "weekends cost no upstream request")
            #expect(late.header("Cache-Status")?.contains("; detail=") == true, "stale while the publication is late")
            #expect(monday.text.contains(#""date":"2026-11-23""#))
            #expect(monday.header("Expires") == "Tue, 24 Nov 2026 15:05:00 GMT")
            #expect(missed == 1)
            #expect(metrics.text.contains(#"larder_publications_missed_total{resource="rates"} 1"#))
        }
    }
}

/// Counts missed publications (the only event these tests look at).
final class CountingEvents: CacheEvents {
    let missed = Counter()
    func hit(_ resource: CacheResource, stale: Bool) {}
    func miss(_ resource: CacheResource) {}
    func upstreamFetch(_ resource: CacheResource, outcome: FetchOutcome) {}
    func refreshed(_ resource: CacheResource, duration: Duration) {}
    func regressionRefused(_ resource: CacheResource) {}
    func publicationMissed(_ resource: CacheResource) { missed.add() }
}

/// A thread-safe count.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
