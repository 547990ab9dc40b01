public import Synchronization

/// The current value every request reads, replaced whole by one swap: readers hold a strong
/// reference and never see half an update.
public final class Published<Value: Sendable>: Sendable {
    @usableFromInline let value: Mutex<Value?>

    public init(_ initial: Value?) {
        value = Mutex(initial)
    }

    /// Inlinable, so the hot path reads it specialized, without generic metadata look-ups.
    @inlinable public var current: Value? {
        value.withLock { $0 }
    }

    @inlinable public func publish(_ fresh: Value) {
        value.withLock { $0 = fresh }
    }
}
