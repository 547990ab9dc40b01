import Foundation
import Synchronization

/// How far a Frankfurter v2 mirror's sync is, updated after each answer while it runs (not only when
/// the refresh ends), for `/status` and the status page; a failed or partial sync keeps its figures.
public final class FrankfurterMirrorProgress: Sendable {
    /// A provider of `/v2/providers` and what the mirror noted of its entry: why it is not followed, or
    /// how far it is asked.
    public struct ProviderNote: Sendable, Equatable {
        public var key: String
        public var reason: String
    }

    /// The figures at one instant.
    public struct Snapshot: Sendable, Equatable {
        public var running = false
        public var providersComplete = 0
        public var providersTotal = 0
        public var rows = 0
        /// The requests of this refresh (first-sync windows, probes, incremental asks), and those answered.
        public var windowsDone = 0
        public var windowsTotal = 0
        /// The windows left times the observed time per window; nil before the first answer or when none is left.
        public var secondsLeft: Int?
        public var skipped: [ProviderNote] = []
        /// Providers listed as ending after today + 1 (SPEC §4.11), followed only up to it.
        public var bounded: [ProviderNote] = []
    }

    private struct State {
        var figures = Snapshot()
        var started: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    public init() {}

    /// Nil until a mirror sync began.
    public var snapshot: Snapshot? {
        state.withLock { $0.started == nil ? nil : $0.figures }
    }

    func start(providers: Int, complete: Int, rows: Int, skipped: [ProviderNote], bounded: [ProviderNote]) {
        state.withLock {
            $0.started = .now
            $0.figures = Snapshot(
                running: true, providersComplete: complete, providersTotal: providers, rows: rows, skipped: skipped,
                bounded: bounded)
        }
    }

    /// More requests this refresh will send (the probe's are known before the windows').
    func plan(_ windows: Int) {
        state.withLock { $0.figures.windowsTotal += windows }
    }

    func answered(rowsAdded: Int) {
        state.withLock { state in
            state.figures.windowsDone += 1
            state.figures.rows += rowsAdded
            state.figures.secondsLeft = Self.estimate(state)
        }
    }

    func stop(complete: Int, rows: Int) {
        state.withLock {
            $0.figures.running = false
            $0.figures.providersComplete = complete
            $0.figures.rows = rows
            $0.figures.secondsLeft = nil
        }
    }

    /// Halted by an error: the figures stay, without an estimate (nothing runs to reach it).
    func failed() {
        state.withLock {
            $0.figures.running = false
            $0.figures.secondsLeft = nil
        }
    }

    private static func estimate(_ state: State) -> Int? {
        let figures = state.figures
        let left = figures.windowsTotal - figures.windowsDone
        guard left > 0, figures.windowsDone > 0, let started = state.started else { return nil }
        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Int((seconds / Double(figures.windowsDone) * Double(left)).rounded(.up))
    }
}
