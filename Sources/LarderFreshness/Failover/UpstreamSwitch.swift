import Synchronization

/// Whether the cached copy still comes from an upstream URL other than the configured one (SPEC
/// §4.9): such a copy is served, stale (`detail=upstream-changed`), until the new upstream delivers
/// a complete, valid copy that replaces it whole. Shared by a resource's refresher and its sync.
public final class UpstreamSwitch: Sendable {
    private let pending: Atomic<Bool>

    /// `pending` is true when the store's data came from another URL than the configured one.
    public init(pending: Bool) {
        self.pending = Atomic(pending)
    }

    /// True until the new upstream's copy is committed.
    public var isPending: Bool { pending.load(ordering: .acquiring) }

    /// Called once the new upstream's copy is committed.
    public func completed() {
        pending.store(false, ordering: .releasing)
    }

    /// The `Cache-Status` detail of a copy from the previous upstream.
    public static let staleDetail = "upstream-changed"
}
