public import Foundation
import Synchronization

/// SPEC §4.14's `follow`: a replica's copy is fresh for as long as its parent (a Larder upstream)
/// said its own answer was (`Cache-Control: max-age`), within 1 s and 60 s, and is revalidated the
/// moment that runs out, so a new publication reaches the replica within one parent max-age.
public final class FollowSchedule: RefreshSchedule {
    /// The bounds of one wait, in seconds: never polled more than once a second, never left a minute behind.
    public static let shortest = 1
    public static let longest = 60
    private let seconds: Atomic<Int>

    /// Until the parent has answered once, the longest wait.
    public init() {
        seconds = Atomic(Self.longest)
    }

    /// Told the freshness of each answer from the parent; nil (no `max-age`) means the longest wait.
    public func follow(_ freshFor: Int?) {
        seconds.store(min(max(freshFor ?? Self.longest, Self.shortest), Self.longest), ordering: .relaxed)
    }

    /// The wait now in force, in seconds.
    public var current: Int { seconds.load(ordering: .relaxed) }

    public func expiry(fetchedAt: Date) -> Date {
        fetchedAt.addingTimeInterval(TimeInterval(current))
    }

    /// When the parent's copy stops being fresh, the replica asks: a 304 costs the parent one answer.
    public func nextContact(fetchedAt: Date) -> Date {
        expiry(fetchedAt: fetchedAt)
    }

    public var retryCap: Duration { .seconds(Self.longest) }
    public var retryCapSeconds: Int { Self.longest }
    public var ttl: Duration { .seconds(current) }
}
