import Synchronization

/// The current value every request reads, replaced whole by one swap: readers hold a strong
/// reference and never see half an update.
public final class Published<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    public init(_ initial: Value?) {
        value = Mutex(initial)
    }

    public var current: Value? {
        value.withLock { $0 }
    }

    public func publish(_ fresh: Value) {
        value.withLock { $0 = fresh }
    }
}
