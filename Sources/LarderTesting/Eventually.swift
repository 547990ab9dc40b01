import Foundation

/// Polls `condition` until it holds or `timeout` passes: the one way a test waits for something
/// to happen (never a fixed sleep to prove a negative). True when it held in time. The default
/// timeout is generous: a check that holds returns at once, and a loaded machine must not fail it.
public func eventually(
    timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: interval)
    }
}

/// The blocking form of `eventually`, for code already on its own thread (`onThread`, child processes).
public func eventuallyBlocking(
    timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(10), _ condition: () throws -> Bool
) throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
}
