import Foundation

/// Exponential backoff after failures (SPEC §4.7): `initial`, doubling per failure, capped at the TTL.
public struct Backoff: Sendable, Equatable {
    public var initial: Duration
    public var cap: Duration

    public init(initial: Duration = .seconds(5), cap: Duration) {
        self.initial = initial
        self.cap = max(cap, .milliseconds(1))
    }

    /// The wait before the next attempt after `failures` consecutive failures (1 or more).
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        let exponent = min(failures - 1, 30)
        let delay = initial * (1 << exponent)
        return min(delay, cap)
    }
}
