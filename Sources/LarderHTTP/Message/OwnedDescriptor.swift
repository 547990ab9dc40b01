import Glibc
import Synchronization

/// An open file descriptor with exactly one owner, closed exactly once: by libmicrohttpd, once
/// `handOver` gave it a response that sends it, or else by this object when the last reference
/// goes — so a response dropped before it is queued (the client gone, a stop during a suspended
/// request) closes its file. A class, not a `~Copyable` struct: responses are copied (handlers'
/// results, `Sendable` values crossing tasks); the atomic exchange makes the one close certain.
public final class OwnedDescriptor: Sendable {
    private let raw: Atomic<Int32>

    /// Takes ownership of `descriptor`.
    public init(_ descriptor: Int32) {
        raw = Atomic(descriptor)
    }

    /// The descriptor while this still owns it (to read it), -1 once handed over.
    public var descriptor: Int32 { raw.load(ordering: .acquiring) }

    /// Gives the descriptor to `adopt`, which returns true when it took it (and will close it);
    /// otherwise, or when it was already given, this keeps it and closes it when dropped.
    func handOver(_ adopt: (Int32) -> Bool) -> Bool {
        let descriptor = raw.exchange(-1, ordering: .acquiringAndReleasing)
        guard descriptor >= 0 else { return false }
        if adopt(descriptor) { return true }
        raw.store(descriptor, ordering: .releasing)
        return false
    }

    deinit {
        let descriptor = raw.load(ordering: .acquiring)
        if descriptor >= 0 { close(descriptor) }
    }
}
