import Synchronization

/// At most one running operation per key (SPEC §4.6): later callers join the one in flight and share its result.
///
/// A caller that is cancelled stops waiting (and gets nil) without cancelling the operation, which
/// other callers may still be waiting for; the operation runs as a job of `background`, whose stop
/// waits for it (bounded), and its own timeouts bound how long it runs.
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Flight {
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let background: BackgroundWork

    public init(background: BackgroundWork = .standalone) {
        self.background = background
    }

    /// Runs `operation` for `key`, or joins the run already in flight; nil when the caller was cancelled first,
    /// or when nothing was in flight and `startIf` (checked atomically with joining) said not to start,
    /// or when the background work no longer starts jobs (shutting down).
    public func run(
        _ key: Key, startIf: (@Sendable () -> Bool)? = nil, _ operation: @escaping @Sendable () async -> Value
    ) async -> Value? {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let cancelled: Bool = state.withLock { state in
                    guard !Task.isCancelled else { return true }
                    if state.flights[key] != nil {
                        state.flights[key]!.waiters[id] = continuation
                        return false
                    }
                    if let startIf, !startIf() { return true }
                    // The job's `finish` takes this lock, so it cannot run before the flight is recorded.
                    let started = background.submit { [self] in
                        let value = await operation()
                        finish(key, with: value)
                    }
                    guard started else { return true }
                    state.flights[key] = Flight(waiters: [id: continuation])
                    return false
                }
                if cancelled { continuation.resume(returning: nil) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.flights[key]?.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }

    /// True while an operation for `key` runs.
    public func isRunning(_ key: Key) -> Bool {
        state.withLock { $0.flights[key] != nil }
    }

    /// How many operations are running.
    public var runningCount: Int {
        state.withLock { $0.flights.count }
    }

    private func finish(_ key: Key, with value: Value) {
        let waiters = state.withLock { $0.flights.removeValue(forKey: key)?.waiters ?? [:] }
        for waiter in waiters.values {
            waiter.resume(returning: value)
        }
    }
}
