import Foundation

/// Runs `operation` until it returns or `clock` reaches `timeout` from now, whichever comes first;
/// nil on timeout. The operation is cancelled then, so it must stop waiting when cancelled (a
/// `SingleFlight` waiter does, leaving the shared work running).
public func withDeadline<T: Sendable>(
    _ timeout: Duration, on clock: any FreshnessClock, _ operation: @escaping @Sendable () async -> T?
) async -> T? {
    let deadline = clock.now.addingTimeInterval(timeout.timeInterval)
    return await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await clock.sleep(until: deadline)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
