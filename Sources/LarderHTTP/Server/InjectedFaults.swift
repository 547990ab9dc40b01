#if DEBUG
import Synchronization

/// Failures a test makes the server meet on purpose, in debug builds only: libmicrohttpd's own
/// allocations cannot be made to fail from outside, and the paths that handle them must be tested
/// for real. Release builds compile none of it, so the hot path carries no check.
struct InjectedFaults: Sendable {
    /// The first loop's connection memory limit instead of the configured one: past what `mmap` and
    /// `malloc` can give (2^62 bytes), every connection that loop accepts fails its pool allocation
    /// after the accept policy admitted it — the drop libmicrohttpd sends no CLOSED for.
    var firstLoopConnectionMemoryLimit: Int?
    /// How many of the next responses are treated as not allocated (shared by the copies of the configuration).
    var failingResponses = FailingResponses()
}

/// A count of responses still to fail, taken one at a time by the server threads.
final class FailingResponses: Sendable {
    let remaining = Atomic<Int>(0)

    /// True when this response must fail: takes one from the count.
    func take() -> Bool {
        var current = remaining.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = remaining.compareExchange(
                expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
#endif
