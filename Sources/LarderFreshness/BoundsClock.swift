public import Foundation
import Synchronization

/// "Now" as SPEC §4.11's bounds read it: the later of the clock and the newest instant Larder itself
/// recorded, so a clock that went back (a board before NTP, a VM restored from a snapshot) neither
/// hides real data nor refuses a real publication. Never used for freshness: a TTL runs on the clock.
public final class BoundsClock: Sendable {
    public let clock: any FreshnessClock
    private let newestRecorded: Mutex<Date?>

    /// `newestRecorded`: the store's newest sane `stored_at`/`fetched_at`, nil when it holds none.
    public init(clock: any FreshnessClock, newestRecorded: Date?) {
        self.clock = clock
        self.newestRecorded = Mutex(newestRecorded)
    }

    /// The later of the clock's now and every instant recorded.
    public var now: Date { later(than: clock.now) }

    /// The later of `instant` (a clock reading) and every instant recorded.
    public func later(than instant: Date) -> Date {
        newestRecorded.withLock { recorded in recorded.map { max($0, instant) } ?? instant }
    }

    /// Told of each instant Larder records (a successful contact), so a clock set back while running counts too.
    public func recorded(_ instant: Date) {
        newestRecorded.withLock { recorded in recorded = recorded.map { max($0, instant) } ?? instant }
    }
}
