public import LarderHTTP
public import Synchronization

/// The current value every request reads, replaced whole by one swap: readers hold a strong
/// reference and never see half an update.
public final class Published<Value: Sendable>: Sendable {
    /// The value and how many times it was replaced, so `update` can tell a write it did not see.
    @usableFromInline struct Slot: Sendable {
        @usableFromInline var value: Value?
        @usableFromInline var version: UInt64 = 0
    }

    @usableFromInline let slot: Mutex<Slot>
    /// Counts each replacement, and each `changed()`: the server's memo repeats no answer computed before one.
    public let changes = AnswerChanges()

    public init(_ initial: Value?) {
        slot = Mutex(Slot(value: initial))
    }

    /// Inlinable, so the hot path reads it specialized, without generic metadata look-ups.
    @inlinable public var current: Value? {
        slot.withLock { $0.value }
    }

    /// Replaces the value whatever it is now; a writer that merges into it uses `update`.
    public func publish(_ fresh: Value) {
        slot.withLock { slot in
            slot.value = fresh
            slot.version &+= 1
        }
        changes.changed()
    }

    /// Something answers of the value are computed from besides the value changed (its refresh state).
    public func changed() {
        changes.changed()
    }

    /// Read-merge-publish as one step against every other writer: `transform` gets the current value
    /// and returns the one to publish (nil: publish nothing). When another write landed meanwhile,
    /// `transform` runs again on that one, so no writer's change is lost; it must therefore be pure.
    /// It runs outside the lock, so readers never wait for a merge.
    public func update(_ transform: (Value?) -> Value?) {
        while true {
            let (seen, version) = slot.withLock { ($0.value, $0.version) }
            guard let fresh = transform(seen) else { return }
            let stored = slot.withLock { slot in
                guard slot.version == version else { return false }
                slot.value = fresh
                slot.version &+= 1
                return true
            }
            if stored {
                changes.changed()
                return
            }
        }
    }
}
