public import LarderHTTP

/// Lets the server repeat a prepared answer from its memo (`AnswerMemo`) until the end of its second:
/// given by a cache only for a fresh copy on the system clock, whose every change `changes` counts.
public struct MemoPermit: Sendable, Equatable {
    /// The cache's (`Published.changes`).
    public let changes: AnswerChanges
    /// `changes.current`, read before the copy and its freshness were.
    public let generation: UInt64
    /// Counts each repeat as the cache counts its own hits (`CacheEvents.freshHit`).
    public let hit: any AnswerMemoHit

    public init(changes: AnswerChanges, generation: UInt64, hit: any AnswerMemoHit) {
        self.changes = changes
        self.generation = generation
        self.hit = hit
    }

    public static func == (a: MemoPermit, b: MemoPermit) -> Bool {
        a.changes === b.changes && a.generation == b.generation && a.hit === b.hit
    }
}

/// A fresh hit of one resource, counted through its cache's events (`CacheEvents.freshHit`'s default).
public final class CacheHit: AnswerMemoHit {
    let events: any CacheEvents
    let resource: CacheResource

    public init(events: any CacheEvents, resource: CacheResource) {
        self.events = events
        self.resource = resource
    }

    public func recordHit() {
        events.hit(resource, stale: false)
    }
}
