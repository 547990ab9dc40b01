public import Foundation
import Synchronization

/// One upstream's health (SPEC §4.12): its consecutive failures and a breaker. A failure opens the
/// breaker for a window that doubles per consecutive failure; while open, refreshes skip the
/// upstream, so a dead one costs one timeout per window, not one per refresh. Past the window one
/// attempt goes through (half-open): a success closes the breaker, a failure reopens it, longer.
public final class UpstreamHealth: Sendable {
    /// The breaker's state, as `/status` names it.
    public enum State: String, Sendable {
        case closed
        case open
        case halfOpen = "half-open"
    }

    /// What `/status` shows of one upstream.
    public struct Report: Sendable, Equatable {
        public var state: State
        public var consecutiveFailures: Int
        public var lastSuccess: Date?
        public var lastAttempt: Date?
        public var lastError: RefreshError?
        public var lastErrorAt: Date?
        /// While open: when the next attempt may go through.
        public var openUntil: Date?
        /// What it served last, in the resource's words (e.g. `2026-11-27, 1 day`).
        public var served: String?
        /// Answered without a publication due, or with a newest day older than another's (SPEC §4.12):
        /// asked after the up-to-date ones until it is seen holding the newest day again.
        public var behind = false
        /// The newest day it was last seen holding (rates); nil before it answered.
        public var newestDay: String?
    }

    /// The breaker's windows: 30 s after the first failure, doubling, at most 15 minutes.
    public static let defaultWindow = Backoff(initial: .seconds(30), cap: .seconds(900))

    private let window: Backoff
    private let state = Mutex(Report(state: .closed, consecutiveFailures: 0))

    public init(window: Backoff = UpstreamHealth.defaultWindow) {
        self.window = window
    }

    /// The report at `now` (an open breaker past its window reads half-open).
    public func report(at now: Date) -> Report {
        state.withLock { report in
            var shown = report
            if shown.state == .open, let until = shown.openUntil, until <= now { shown.state = .halfOpen }
            return shown
        }
    }

    /// True when a refresh may ask this upstream at `now`: closed, or open past its window.
    public func isAvailable(at now: Date) -> Bool {
        state.withLock { $0.state != .open || ($0.openUntil ?? now) <= now }
    }

    /// When an open breaker lets the next attempt through; nil when closed.
    public func openUntil() -> Date? {
        state.withLock { $0.state == .open ? $0.openUntil : nil }
    }

    /// An attempt is starting (recorded for `/status`).
    public func attempting(at now: Date) {
        state.withLock { $0.lastAttempt = now }
    }

    /// The upstream answered usefully: the breaker closes, and it is up to date.
    public func succeeded(at now: Date, served: String?) {
        answered(at: now, served: served, behind: false)
    }

    /// The upstream answered without a publication the schedule says is due: no failure (the breaker
    /// closes as on a success), but it is behind.
    public func answeredBehind(at now: Date, served: String?) {
        answered(at: now, served: served, behind: true)
    }

    /// Its newest day as a refresh or a cross-check saw it; `behind` when known (nil: unchanged).
    public func holds(newestDay: String, behind: Bool? = nil) {
        state.withLock { report in
            report.newestDay = newestDay
            if let behind { report.behind = behind }
        }
    }

    private func answered(at now: Date, served: String?, behind: Bool) {
        state.withLock { report in
            report.state = .closed
            report.consecutiveFailures = 0
            report.openUntil = nil
            report.lastSuccess = now
            report.behind = behind
            if let served { report.served = served }
        }
    }

    /// True while the upstream is behind (ranked after the up-to-date ones).
    public var isBehind: Bool {
        state.withLock { $0.behind }
    }

    /// The upstream failed: the breaker opens for the next window.
    public func failed(at now: Date, error: RefreshError) {
        state.withLock { report in
            report.consecutiveFailures += 1
            report.state = .open
            report.openUntil = now.addingTimeInterval(window.delay(afterFailures: report.consecutiveFailures).timeInterval)
            report.lastError = error
            report.lastErrorAt = now
        }
    }
}

/// The order a refresh asks a resource's upstreams in (SPEC §4.12): those available, in priority
/// order, the ones behind after the up-to-date ones (a lagging primary costs no request while another
/// has the newest day, and takes its place back once seen holding it); when every breaker is open,
/// the one whose window ends first, so a resource whose every upstream failed still retries one of
/// them on its own backoff (and one upstream behaves as before).
public enum UpstreamOrder {
    /// `fallback` is per upstream, as `health`.
    public static func indices(_ health: [UpstreamHealth], fallback: [Bool], at now: Date) -> [Int] {
        let available = health.indices.filter { health[$0].isAvailable(at: now) }
        if !available.isEmpty {
            // A `;fallback` upstream comes after every other, however healthy (SPEC §4.12).
            let first = available.filter { !fallback[$0] }
            return first.filter { !health[$0].isBehind } + first.filter { health[$0].isBehind } + available.filter { fallback[$0] }
        }
        let soonest = health.indices.min { (health[$0].openUntil() ?? now) < (health[$1].openUntil() ?? now) }
        return soonest.map { [$0] } ?? []
    }
}
