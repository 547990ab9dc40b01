public import Foundation
import LarderFormats

/// The time source of every freshness decision, injected so tests move time instead of sleeping through a TTL.
public protocol FreshnessClock: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Returns once `now >= deadline`; throws `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

/// Wall-clock time.
public struct SystemClock: FreshnessClock {
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        }
        try Task.checkCancellation()
    }
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic takes it.
    public var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }

    /// The duration in whole seconds, rounded down (clamped as `WholeSeconds` does).
    public var wholeSeconds: Int {
        WholeSeconds.of(timeInterval, .down)
    }
}
