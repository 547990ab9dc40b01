import Foundation
import LarderFreshness
import Logging
import Synchronization
import Testing

/// A refresh operation whose results a test scripts, counting calls.
final class ScriptedAttempt: Sendable {
    let calls = Atomic<Int>(0)
    let failing = Atomic<Bool>(false)

    func run(_ at: Date) async -> Result<String, RefreshError> {
        calls.add(1, ordering: .relaxed)
        return failing.load(ordering: .relaxed) ? .failure(RefreshError(.unreachable, "refused")) : .success("ok")
    }

    var count: Int { calls.load(ordering: .relaxed) }
}

/// Polls until `condition` holds (bounded), for background work that follows a clock move.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

@Suite("Refresher: scheduling, stale-while-revalidate, backoff")
struct RefresherTests {
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    func make(_ clock: ManualClock, _ attempt: ScriptedAttempt, fetchedAt: Date?) -> Refresher<String> {
        Refresher(name: "test", ttl: .seconds(100), clock: clock, fetchedAt: fetchedAt, logger: logger) {
            await attempt.run($0)
        }
    }

    @Test func schedulerSyncsAtStartThenBeforeEachExpiry() async {
        let clock = ManualClock()
        let attempt = ScriptedAttempt()
        let refresher = make(clock, attempt, fetchedAt: clock.now)
        let scheduler = Task { await refresher.run() }
        #expect(await eventually { attempt.count == 1 && clock.sleeperCount == 1 })
        // Due 10 s before the 100 s TTL runs out.
        clock.advance(by: 89)
        try? await Task.sleep(for: .milliseconds(30))
        #expect(attempt.count == 1)
        clock.advance(by: 1)
        #expect(await eventually { attempt.count == 2 && clock.sleeperCount == 1 })
        #expect(refresher.fetchedAt == clock.now)
        #expect(!refresher.isExpired)
        scheduler.cancel()
        await scheduler.value
    }

    @Test func failuresBackOffExponentiallyCappedAtTheTTL() async {
        let clock = ManualClock()
        let attempt = ScriptedAttempt()
        attempt.failing.store(true, ordering: .relaxed)
        let refresher = make(clock, attempt, fetchedAt: nil)
        let scheduler = Task { await refresher.run() }
        var expected = 1
        for delay in [5.0, 10, 20, 40, 80, 100, 100] {
            #expect(await eventually { attempt.count == expected && clock.sleeperCount == 1 })
            #expect(refresher.status.retryAt == clock.now + delay)
            clock.advance(by: delay)
            expected += 1
        }
        attempt.failing.store(false, ordering: .relaxed)
        #expect(await eventually { refresher.status.failures == 0 && refresher.status.lastError == nil })
        scheduler.cancel()
        await scheduler.value
    }

    @Test func anExpiredItemRefreshesInTheBackgroundOncePerBackoff() async {
        let clock = ManualClock()
        let attempt = ScriptedAttempt()
        let refresher = make(clock, attempt, fetchedAt: clock.now)
        refresher.refreshIfDue()
        try? await Task.sleep(for: .milliseconds(20))
        #expect(attempt.count == 0, "fresh: nothing to do")
        clock.advance(by: 100)
        attempt.failing.store(true, ordering: .relaxed)
        refresher.refreshIfDue()
        #expect(await eventually { attempt.count == 1 && !refresher.isRefreshing })
        for _ in 0..<50 { refresher.refreshIfDue() }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(attempt.count == 1, "backing off: requests must not hammer the upstream")
        clock.advance(by: 5)
        refresher.refreshIfDue()
        #expect(await eventually { attempt.count == 2 })
    }

    @Test func freshnessTellsExpiryBackoffAndTheLastErrorAtOneInstant() async {
        let clock = ManualClock()
        let attempt = ScriptedAttempt()
        let fetched = clock.now
        let refresher = make(clock, attempt, fetchedAt: fetched)
        let fresh = refresher.freshness()
        #expect(fresh.now == clock.now && fresh.fetchedAt == fetched && fresh.expiresAt == fetched + 100)
        #expect(!fresh.isExpired && !fresh.isDue && fresh.lastErrorKind == nil)
        clock.advance(by: 100)
        let expired = refresher.freshness()
        #expect(expired.isExpired && expired.isDue)
        attempt.failing.store(true, ordering: .relaxed)
        await refresher.refresh()
        let backingOff = refresher.freshness()
        #expect(backingOff.isExpired && !backingOff.isDue, "a failure backs off: not due for 5 s")
        #expect(backingOff.lastErrorKind == "upstream-unreachable")
        clock.advance(by: 5)
        #expect(refresher.freshness().isDue)
        #expect(make(clock, attempt, fetchedAt: nil).freshness().isExpired, "never fetched is expired")
    }

    @Test func waitingForAFetchGivesUpAtTheDeadline() async {
        let clock = ManualClock()
        let gate = Gate()
        let refresher = Refresher<String>(
            name: "slow", ttl: .seconds(100), clock: clock, fetchedAt: nil, logger: logger
        ) { _ in
            await gate.wait()
            return .success("late")
        }
        let waiter = Task { await refresher.refresh(waitingAtMost: .seconds(10)) }
        #expect(await eventually { clock.sleeperCount == 1 && refresher.isRefreshing })
        clock.advance(by: 10)
        let result = await waiter.value
        #expect(result == nil)
        #expect(refresher.isRefreshing, "the fetch itself goes on for the next waiter")
        gate.open()
        #expect(await eventually { !refresher.isRefreshing })
        #expect(refresher.fetchedAt != nil)
    }
}
