import Foundation
import LarderFreshness
import LarderTesting
import Testing

/// SPEC §4.9 as `UpstreamSwitch` and the refresher apply it: a copy from the previous upstream URL is
/// stale from the start until the new upstream's copy is committed.
@Suite("UpstreamSwitch: a copy of the previous upstream is stale")
struct UpstreamSwitchTests {
    @Test func pendingUntilCompleted() {
        let change = UpstreamSwitch(pending: true)
        #expect(change.isPending)
        change.completed()
        #expect(!change.isPending)
        #expect(!UpstreamSwitch(pending: false).isPending)
        #expect(UpstreamSwitch.staleDetail == "upstream-changed")
    }

    @Test func aPendingSwitchMakesAFreshCopyStaleAndDueAtOnce() {
        let clock = ManualClock()
        let fetched = clock.now - 10
        let change = UpstreamSwitch(pending: true)
        let refresher = Refresher<String>(
            name: "switch", schedule: TTLSchedule(ttl: .seconds(100)), clock: clock, fetchedAt: fetched,
            upstreamSwitch: change, logger: quietLogger
        ) { _ in .success("new") }
        let pending = refresher.freshness()
        #expect(refresher.isExpired)
        #expect(pending.isExpired && pending.isDue)
        #expect(pending.expiresAt == fetched, "stale since it was fetched")
        #expect(pending.lastErrorKind == UpstreamSwitch.staleDetail)
        change.completed()
        let settled = refresher.freshness()
        #expect(!refresher.isExpired)
        #expect(!settled.isExpired && !settled.isDue)
        #expect(settled.expiresAt == fetched + 100)
        #expect(settled.lastErrorKind == nil)
    }

    @Test func aCopyFetchedAfterTheClockExpiresNoLaterThanNow() {
        let clock = ManualClock()
        let refresher = Refresher<String>(
            name: "switch", schedule: TTLSchedule(ttl: .seconds(100)), clock: clock, fetchedAt: clock.now + 30,
            upstreamSwitch: UpstreamSwitch(pending: true), logger: quietLogger
        ) { _ in .success("new") }
        #expect(refresher.freshness().expiresAt == clock.now)
    }
}
