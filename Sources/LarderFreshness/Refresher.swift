import Foundation
import Logging
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
    public let ttl: Duration
    public let clock: any FreshnessClock
    let backoff: Backoff
    let logger: Logger
    private let attempt: Attempt
    private let flight = SingleFlight<Int, Result<Outcome, RefreshError>>()
    private let state: Mutex<RefreshStatus>
    /// Set while a request-triggered refresh is being started, so a burst of requests starts one.
    private let triggered = Atomic<Bool>(false)

    /// `fetchedAt` is the stored `fetched_at` of the cached copy, nil when nothing is cached.
    public init(
        name: String, ttl: Duration, clock: any FreshnessClock, fetchedAt: Date?,
        backoff: Backoff? = nil, logger: Logger, attempt: @escaping Attempt
    ) {
        self.name = name
        self.ttl = ttl
        self.clock = clock
        self.backoff = backoff ?? Backoff(cap: ttl)
        self.logger = logger
        self.attempt = attempt
        state = Mutex(RefreshStatus(fetchedAt: fetchedAt))
    }

    /// What `/status` shows: the last success, attempt and error, and when the next refresh is due.
    public var status: RefreshStatus {
        state.withLock { $0 }
    }

    /// The last time the upstream confirmed or replaced the item.
    public var fetchedAt: Date? {
        state.withLock { $0.fetchedAt }
    }

    public var isExpired: Bool {
        FreshnessRules.isExpired(fetchedAt: fetchedAt, ttl: ttl, now: clock.now)
    }

    /// Everything a request needs to know about the item's freshness, read with one clock read and one lock.
    public func freshness() -> Freshness {
        let now = clock.now
        return state.withLock { status in
            let expired = FreshnessRules.isExpired(fetchedAt: status.fetchedAt, ttl: ttl, now: now)
            return Freshness(
                now: now, ttl: ttl, fetchedAt: status.fetchedAt, isExpired: expired,
                isDue: expired && (status.retryAt.map { $0 <= now } ?? true),
                lastErrorKind: status.lastError?.kind.rawValue)
        }
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
        Task {
            // Another path (the scheduler, a POST) may have refreshed since the check.
            if self.isExpired { await self.refresh() }
            self.triggered.store(false, ordering: .releasing)
        }
    }

    /// Joins (or starts, when `startIf` allows) a refresh and waits for it at most `timeout`; nil
    /// when time ran out first or no refresh was started.
    public func refresh(
        waitingAtMost timeout: Duration, startIf: (@Sendable () -> Bool)? = nil
    ) async -> Result<Outcome, RefreshError>? {
        await withDeadline(timeout, on: clock) { await self.refresh(startIf: startIf) }
    }

    /// The scheduler: refreshes at start, then before each expiry, and after failures on the
    /// backoff schedule; returns when its task is cancelled (graceful shutdown).
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
        flight.cancelAll()
    }

    /// When the scheduler refreshes next: the retry time after a failure, else a little before expiry.
    func nextDue() -> Date {
        state.withLock { status in
            if let retryAt = status.retryAt { return retryAt }
            guard let fetchedAt = status.fetchedAt else { return clock.now }
            // Refresh ahead of expiry by a tenth of the TTL (at most a minute), so a healthy
            // upstream never lets the item expire.
            let lead = min(ttl.timeInterval / 10, 60)
            return fetchedAt.addingTimeInterval(ttl.timeInterval - lead)
        }
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
                status.retryAt = now.addingTimeInterval(backoff.delay(afterFailures: status.failures).timeInterval)
            }
        }
        if case .failure(let error) = result {
            logger.warning("\(name) refresh failed: \(error.message)", metadata: ["error_kind": "\(error.kind.rawValue)"])
        }
    }
}

/// An item's freshness at one instant (`Refresher.freshness()`).
public struct Freshness: Sendable {
    public let now: Date
    public let ttl: Duration
    /// The last time the upstream confirmed or replaced the item; nil when never.
    public let fetchedAt: Date?
    public let isExpired: Bool
    /// Expired and not backing off: a request should start a background refresh.
    public let isDue: Bool
    /// The kind of the last refresh's error, when it failed.
    public let lastErrorKind: String?
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
