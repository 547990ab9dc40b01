public import Foundation
public import Logging
import Synchronization

/// Keeps one cached item fresh (SPEC §4.5–4.7): one refresh at a time, a scheduler that refreshes
/// before expiry, background refreshes triggered by requests for expired data, and backoff on failure.
///
/// The item's own code does the fetching, validation and atomic commit in `attempt`; this type
/// decides *when*, and remembers how it went for `/status`.
public final class Refresher<Outcome: Sendable>: Sendable {
    /// One fetch-validate-commit of the item; `contactAt` is the instant to record as `fetched_at` on success.
    public typealias Attempt = @Sendable (_ contactAt: Date) async -> Result<Outcome, RefreshError>

    public let name: String
    /// When the item goes stale and when the upstream is asked again.
    public let schedule: any RefreshSchedule
    /// Set while the cached copy came from a previous upstream URL: it is stale whatever the schedule says.
    public let upstreamSwitch: UpstreamSwitch
    public let clock: any FreshnessClock
    let backoff: Backoff
    let logger: Logger
    private let attempt: Attempt
    private let flight: SingleFlight<Int, Result<Outcome, RefreshError>>
    /// Runs the refreshes and the request-triggered starts, so a graceful stop waits for them.
    private let background: BackgroundWork
    private let state: Mutex<RefreshStatus>
    /// Set while a request-triggered refresh is being started, so a burst of requests starts one.
    private let triggered = Atomic<Bool>(false)
    /// Called after each refresh's outcome is recorded: answers computed from the old state are stale.
    private let onChange: @Sendable () -> Void

    /// `fetchedAt` is the stored `fetched_at` of the cached copy, nil when nothing is cached.
    public init(
        name: String, schedule: any RefreshSchedule, clock: any FreshnessClock, fetchedAt: Date?,
        upstreamSwitch: UpstreamSwitch = UpstreamSwitch(pending: false),
        backoff: Backoff? = nil, background: BackgroundWork = .standalone, logger: Logger,
        onChange: @escaping @Sendable () -> Void = {}, attempt: @escaping Attempt
    ) {
        self.onChange = onChange
        self.background = background
        flight = SingleFlight(background: background)
        self.name = name
        self.schedule = schedule
        self.upstreamSwitch = upstreamSwitch
        self.clock = clock
        self.backoff = backoff ?? Backoff(cap: schedule.retryCap)
        self.logger = logger
        self.attempt = attempt
        state = Mutex(RefreshStatus(fetchedAt: fetchedAt))
    }

    /// A refresher on a plain TTL (SPEC §4.1).
    public convenience init(
        name: String, ttl: Duration, clock: any FreshnessClock, fetchedAt: Date?,
        backoff: Backoff? = nil, logger: Logger, attempt: @escaping Attempt
    ) {
        self.init(
            name: name, schedule: TTLSchedule(ttl: ttl), clock: clock, fetchedAt: fetchedAt, backoff: backoff,
            logger: logger, attempt: attempt)
    }

    /// The nominal lifetime of a copy (the TTL, or the poll interval of a calendar).
    public var ttl: Duration { schedule.ttl }

    /// What `/status` shows: the last success, attempt and error, and when the next refresh is due.
    public var status: RefreshStatus {
        state.withLock { $0 }
    }

    /// The last time the upstream confirmed or replaced the item.
    public var fetchedAt: Date? {
        state.withLock { $0.fetchedAt }
    }

    public var isExpired: Bool {
        let now = clock.now
        return upstreamSwitch.isPending || fetchedAt.map { $0 > now } == true || schedule.isExpired(fetchedAt: fetchedAt, now: now)
    }

    /// Everything a request needs to know about the item's freshness, read with one clock read and one lock.
    public func freshness() -> Freshness {
        let now = clock.now
        let status = state.withLock { ($0.fetchedAt, $0.retryAt, $0.lastError?.kind.rawValue) }
        let (fetchedAt, retryAt, lastErrorKind) = status
        guard let fetchedAt else {
            return Freshness(
                now: now, fetchedAt: nil, expiresAt: nil, isExpired: true,
                isDue: retryAt.map { $0 <= now } ?? true, lastErrorKind: lastErrorKind,
                revalidationSeconds: schedule.retryCapSeconds)
        }
        if upstreamSwitch.isPending || fetchedAt > now {
            // A copy of the previous upstream: stale since it was fetched, replaced as soon as the new one
            // answers. A contact "after now" (the clock went back since) keeps nothing fresh either; the
            // stored instant stays as it is, since it tells what "today" is (SPEC §4.11).
            return Freshness(
                now: now, fetchedAt: fetchedAt, expiresAt: min(fetchedAt, now), isExpired: true,
                isDue: retryAt.map { $0 <= now } ?? true,
                lastErrorKind: upstreamSwitch.isPending ? UpstreamSwitch.staleDetail : lastErrorKind,
                revalidationSeconds: schedule.retryCapSeconds)
        }
        let expiresAt = schedule.expiry(fetchedAt: fetchedAt)
        let expired = now >= expiresAt
        // Expired, not backing off, and (under a calendar's polling) not contacted too recently.
        let due = expired && (retryAt.map { $0 <= now } ?? true) && schedule.nextContact(fetchedAt: fetchedAt) <= now
        return Freshness(
            now: now, fetchedAt: fetchedAt, expiresAt: expiresAt, isExpired: expired, isDue: due,
            lastErrorKind: lastErrorKind, revalidationSeconds: schedule.retryCapSeconds)
    }

    public var isRefreshing: Bool { flight.isRunning(0) }

    /// Refreshes now, or joins the refresh in flight; nil only when the caller was cancelled.
    @discardableResult
    public func refresh(startIf: (@Sendable () -> Bool)? = nil) async -> Result<Outcome, RefreshError>? {
        await flight.run(0, startIf: startIf) { [self] in
            let started = clock.now
            state.withLock { $0.lastAttempt = started }
            let result = await attempt(started)
            record(result, at: started)
            return result
        }
    }

    /// Stale-while-revalidate: when the item is expired, not refreshing and not backing off, starts
    /// a refresh in the background and returns at once.
    public func refreshIfDue() {
        refreshIfDue(freshness())
    }

    /// `refreshIfDue()` on a freshness the caller already read (the hot path reads it once per request).
    public func refreshIfDue(_ freshness: Freshness) {
        guard freshness.isDue, !flight.isRunning(0),
              triggered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let started = background.submit {
            // Another path (the scheduler, a POST) may have refreshed since the check.
            if self.isExpired { await self.refresh() }
            self.triggered.store(false, ordering: .releasing)
        }
        if !started { triggered.store(false, ordering: .releasing) }
    }

    /// Joins (or starts, when `startIf` allows) a refresh and waits for it at most `timeout`; nil
    /// when time ran out first or no refresh was started.
    public func refresh(
        waitingAtMost timeout: Duration, startIf: (@Sendable () -> Bool)? = nil
    ) async -> Result<Outcome, RefreshError>? {
        await withDeadline(timeout, on: clock) { await self.refresh(startIf: startIf) }
    }

    /// The scheduler: refreshes at start, then before each expiry, and after failures on the
    /// backoff schedule; returns when its task is cancelled (graceful shutdown), leaving a refresh
    /// in flight to the background work's stop.
    public func run() async {
        await refresh()
        while !Task.isCancelled {
            let due = nextDue()
            state.withLock { $0.nextRefresh = due }
            if due > clock.now {
                do { try await clock.sleep(until: due) } catch { break }
                continue
            }
            await refresh()
        }
    }

    /// When the scheduler refreshes next: the retry time after a failure, else what the schedule says.
    func nextDue() -> Date {
        let (retryAt, fetchedAt) = state.withLock { ($0.retryAt, $0.fetchedAt) }
        if let retryAt { return retryAt }
        let now = clock.now
        guard let fetchedAt, !upstreamSwitch.isPending, fetchedAt <= now else { return now }
        return schedule.nextContact(fetchedAt: fetchedAt)
    }

    private func record(_ result: Result<Outcome, RefreshError>, at started: Date) {
        let now = clock.now
        state.withLock { status in
            switch result {
            case .success:
                status.fetchedAt = started
                status.lastSuccess = now
                status.lastError = nil
                status.failures = 0
                status.retryAt = nil
            case .failure(let error):
                status.failures += 1
                status.lastError = error
                status.lastErrorAt = now
                // Capped by the schedule as it is now (a calendar found only after start polls more often).
                let delay = min(backoff.delay(afterFailures: status.failures), schedule.retryCap)
                status.retryAt = now.addingTimeInterval(delay.timeInterval)
            }
        }
        if case .success = result {
            schedule.settle(fetchedAt: started)
        }
        onChange()
        if case .failure(let error) = result {
            logger.warning("\(name) refresh failed: \(error.message)", metadata: ["error_kind": "\(error.kind.rawValue)"])
        }
    }
}

/// An item's freshness at one instant (`Refresher.freshness()`).
public struct Freshness: Sendable {
    public let now: Date
    /// The last time the upstream confirmed or replaced the item; nil when never.
    public let fetchedAt: Date?
    /// When that copy stops (or stopped) being fresh; nil when never fetched.
    public let expiresAt: Date?
    public let isExpired: Bool
    /// Expired and not backing off: a request should start a background refresh.
    public let isDue: Bool
    /// The kind of the last refresh's error, when it failed.
    public let lastErrorKind: String?
    /// The longest an expired copy goes without an attempt to revalidate it, in whole seconds: the
    /// schedule's retry cap (the TTL, or the poll interval under a publication calendar). Sizes RFC 5861's directives.
    public let revalidationSeconds: Int
}

/// A snapshot of one item's refresh history, for `/status` and stale `Cache-Status` details.
public struct RefreshStatus: Sendable, Equatable {
    public var fetchedAt: Date?
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    public var lastError: RefreshError?
    public var lastErrorAt: Date?
    /// Consecutive failures since the last success.
    public var failures = 0
    /// While backing off: the earliest next attempt.
    public var retryAt: Date?
    public var nextRefresh: Date?

    public init(fetchedAt: Date?) {
        self.fetchedAt = fetchedAt
    }
}
