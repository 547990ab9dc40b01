import Foundation
import LarderFreshness
import LarderTesting
import Synchronization
import Testing

/// A refresh operation whose results a test scripts, recording the instant of every call.
final class ScriptedAttempt: Sendable {
    private let contacts = Mutex<[Date]>([])
    let failing = Atomic<Bool>(false)

    func run(_ at: Date) async -> Result<String, RefreshError> {
        contacts.withLock { $0.append(at) }
        return failing.load(ordering: .relaxed) ? .failure(RefreshError(.unreachable, "refused")) : .success("ok")
    }

    var count: Int { contacts.withLock { $0.count } }

    /// The clock's instant at each call, in order: an attempt at a moment nothing was due shows here.
    var instants: [Date] { contacts.withLock { $0 } }
}

@Suite("Refresher: scheduling, stale-while-revalidate, backoff")
struct RefresherTests {
    func make(_ clock: ManualClock, _ attempt: ScriptedAttempt, fetchedAt: Date?) -> Refresher<String> {
        Refresher(name: "test", ttl: .seconds(100), clock: clock, fetchedAt: fetchedAt, logger: quietLogger) {
            await attempt.run($0)
        }
    }

    @Test func schedulerSyncsAtStartThenBeforeEachExpiry() async throws {
        let clock = ManualClock()
        let start = clock.now
        let attempt = ScriptedAttempt()
        let refresher = make(clock, attempt, fetchedAt: clock.now)
        let scheduler = Task { await refresher.run() }
        #expect(try await eventually { attempt.count == 1 && clock.sleeperCount == 1 })
        // Due 10 s before the 100 s TTL runs out.
        #expect(refresher.status.nextRefresh == start + 90)
        clock.advance(by: 89)
        // The clock wakes a due sleeper inside `advance`: still asleep now means not due yet.
        #expect(clock.sleeperCount == 1, "the scheduler sleeps on until its deadline")
        #expect(attempt.count == 1)
        clock.advance(by: 1)
        #expect(try await eventually { attempt.count == 2 && clock.sleeperCount == 1 })
        #expect(refresher.fetchedAt == clock.now)
        #expect(!refresher.isExpired)
        scheduler.cancel()
        await scheduler.value
        #expect(attempt.instants == [start, start + 90], "no contact between the two")
    }

    @Test func failuresBackOffExponentiallyCappedAtTheTTL() async throws {
        let clock = ManualClock()
        let attempt = ScriptedAttempt()
        attempt.failing.store(true, ordering: .relaxed)
        let refresher = make(clock, attempt, fetchedAt: nil)
        let scheduler = Task { await refresher.run() }
        var expected = 1
        for delay in [5.0, 10, 20, 40, 80, 100, 100] {
            #expect(try await eventually { attempt.count == expected && clock.sleeperCount == 1 })
            #expect(refresher.status.retryAt == clock.now + delay)
            clock.advance(by: delay)
            expected += 1
        }
        attempt.failing.store(false, ordering: .relaxed)
        #expect(try await eventually { refresher.status.failures == 0 && refresher.status.lastError == nil })
        scheduler.cancel()
        await scheduler.value
    }

    /// What is not due is never started: `refreshIfDue` decides from `freshness()` before it returns,
    /// so the checks read that; the instants of the attempts made show no extra one ran meanwhile.
    @Test func anExpiredItemRefreshesInTheBackgroundOncePerBackoff() async throws {
        let clock = ManualClock()
        let start = clock.now
        let attempt = ScriptedAttempt()
        let refresher = make(clock, attempt, fetchedAt: clock.now)
        #expect(!refresher.freshness().isDue)
        refresher.refreshIfDue()
        #expect(attempt.count == 0, "fresh: nothing to do")
        clock.advance(by: 100)
        attempt.failing.store(true, ordering: .relaxed)
        refresher.refreshIfDue()
        #expect(try await eventually { attempt.count == 1 && !refresher.isRefreshing })
        #expect(refresher.status.retryAt == clock.now + 5)
        #expect(!refresher.freshness().isDue, "backing off")
        for _ in 0..<50 { refresher.refreshIfDue() }
        #expect(attempt.count == 1, "backing off: requests must not hammer the upstream")
        clock.advance(by: 5)
        // Asked again until it starts: the last background refresh may still be winding down.
        #expect(try await eventually {
            refresher.refreshIfDue()
            return attempt.count == 2 && !refresher.isRefreshing
        })
        #expect(attempt.instants == [start + 100, start + 105], "one attempt when expired, one when the backoff ended")
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

    @Test func waitingForAFetchGivesUpAtTheDeadline() async throws {
        let clock = ManualClock()
        let gate = Gate()
        let refresher = Refresher<String>(
            name: "slow", ttl: .seconds(100), clock: clock, fetchedAt: nil, logger: quietLogger
        ) { _ in
            await gate.wait()
            return .success("late")
        }
        let waiter = Task { await refresher.refresh(waitingAtMost: .seconds(10)) }
        #expect(try await eventually { clock.sleeperCount == 1 && refresher.isRefreshing })
        clock.advance(by: 10)
        let result = await waiter.value
        #expect(result == nil)
        #expect(refresher.isRefreshing, "the fetch itself goes on for the next waiter")
        gate.open()
        #expect(try await eventually { !refresher.isRefreshing })
        #expect(refresher.fetchedAt != nil)
    }
}
