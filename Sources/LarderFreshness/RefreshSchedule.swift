public import Foundation

/// When a cached copy stops being fresh and when the upstream is contacted next: a TTL (SPEC §4.1)
/// or a publication calendar (§4.10). The `Refresher` asks; the schedule decides.
public protocol RefreshSchedule: Sendable {
    /// The instant a copy the upstream last confirmed at `fetchedAt` stops being fresh.
    func expiry(fetchedAt: Date) -> Date
    /// When the scheduler contacts the upstream next after a successful contact at `fetchedAt`.
    func nextContact(fetchedAt: Date) -> Date
    /// Told after every successful contact (a calendar gives up on a publication past its cutoff here).
    func settle(fetchedAt: Date)
    /// The longest wait between retries after failures (SPEC §4.7).
    var retryCap: Duration { get }
    /// `retryCap` in whole seconds, rounded down: read on every cached answer, so a schedule keeps it
    /// ready rather than converting a `Duration` (an Int128 of attoseconds) per request.
    var retryCapSeconds: Int { get }
    /// The nominal lifetime `/status` shows.
    var ttl: Duration { get }
}

extension RefreshSchedule {
    public func settle(fetchedAt: Date) {}

    /// §4.1: expired when `now` has reached the expiry; an item never fetched is expired.
    public func isExpired(fetchedAt: Date?, now: Date) -> Bool {
        guard let fetchedAt else { return true }
        return now >= expiry(fetchedAt: fetchedAt)
    }
}

/// SPEC §4.1: fresh for `ttl` after each contact, refreshed a little before that.
public struct TTLSchedule: RefreshSchedule {
    public let ttl: Duration
    public let retryCapSeconds: Int

    public init(ttl: Duration) {
        self.ttl = ttl
        retryCapSeconds = ttl.wholeSeconds
    }

    public func expiry(fetchedAt: Date) -> Date {
        fetchedAt.addingTimeInterval(ttl.timeInterval)
    }

    /// A tenth of the TTL (at most a minute) ahead of expiry, so a healthy upstream never lets the item expire.
    public func nextContact(fetchedAt: Date) -> Date {
        let lead = min(ttl.timeInterval / 10, 60)
        return fetchedAt.addingTimeInterval(ttl.timeInterval - lead)
    }

    public var retryCap: Duration { ttl }
}
