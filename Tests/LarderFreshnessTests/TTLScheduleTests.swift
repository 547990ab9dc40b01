import Foundation
import LarderFreshness
import Testing

/// SPEC §4.1 as `TTLSchedule` states it: when a copy expires and when the upstream is asked again.
@Suite("TTLSchedule: expiry, next contact and retry cap")
struct TTLScheduleTests {
    static let fetched = Date(timeIntervalSince1970: 1_790_000_000)

    @Test(arguments: [
        // (TTL in seconds, the contact's lead on expiry: a tenth of the TTL, at most a minute)
        (100.0, 10.0), (1, 0.1), (600, 60), (3600, 60), (86_400, 60),
    ])
    func contactsTheUpstreamALittleBeforeExpiry(ttl: Double, lead: Double) {
        let schedule = TTLSchedule(ttl: .milliseconds(Int64(ttl * 1000)))
        #expect(schedule.expiry(fetchedAt: Self.fetched) == Self.fetched + ttl)
        #expect(schedule.nextContact(fetchedAt: Self.fetched) == Self.fetched + (ttl - lead))
        #expect(schedule.retryCap == schedule.ttl, "backoff never waits past one TTL")
    }

    @Test func expiredFromTheExpiryInstantAndWhenNeverFetched() {
        let schedule = TTLSchedule(ttl: .seconds(60))
        #expect(!schedule.isExpired(fetchedAt: Self.fetched, now: Self.fetched + 59.999))
        #expect(schedule.isExpired(fetchedAt: Self.fetched, now: Self.fetched + 60))
        #expect(schedule.isExpired(fetchedAt: nil, now: Self.fetched))
    }

    @Test func settlingChangesNothing() {
        let schedule = TTLSchedule(ttl: .seconds(60))
        schedule.settle(fetchedAt: Self.fetched + 1000)
        #expect(schedule.expiry(fetchedAt: Self.fetched) == Self.fetched + 60)
    }
}
