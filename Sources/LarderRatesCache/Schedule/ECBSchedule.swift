import Foundation
import LarderFreshness
import LarderRates
import LarderServing
import Synchronization

/// SPEC §4.10: the rates stay fresh until the ECB's next expected publication — the next TARGET
/// working day after the newest stored day, at 16:00 Europe/Berlin plus a margin — then are polled
/// every `pollInterval` until a newer day lands, or until 18:00, when the publication counts as
/// missed and the next one is awaited. Weekends and holidays cost no upstream request.
///
/// Until the feed is known to be the ECB's (`auto` before the first body), it is a plain TTL.
final class ECBSchedule: RefreshSchedule {
    /// The ECB publishes "around 16:00"; asking a few minutes later saves a poll on most days.
    static let margin: TimeInterval = 5 * 60

    private struct State {
        var isActive: Bool
        /// The newest stored day.
        var latest: RateDate?
        /// The last publication day given up on at its cutoff.
        var missedThrough: RateDate?
        var missed = 0
        /// The awaited day and when it is expected, worked out once per change (requests read it).
        private(set) var expected: (day: RateDate, at: Date)?

        init(isActive: Bool, latest: RateDate?) {
            self.isActive = isActive
            self.latest = latest
            expect()
        }

        /// The first working day after both the newest stored day and the last one given up on.
        mutating func expect() {
            // No working day after the calendar's last one: the plain TTL decides instead.
            guard isActive, let latest,
                  let day = ECBCalendar.nextWorkingDay(after: max(latest, missedThrough ?? latest)) else {
                expected = nil
                return
            }
            expected = (day, ECBCalendar.publication(on: day).addingTimeInterval(ECBSchedule.margin))
        }
    }

    let pollInterval: Duration
    private let fallback: TTLSchedule
    private let activeRetryCapSeconds: Int
    private let events: any CacheEvents
    private let state: Mutex<State>

    /// `active` when the feed is known to follow the calendar; `latest` is the newest stored day.
    init(active: Bool, latest: RateDate?, pollInterval: Duration, ttl: Duration, events: any CacheEvents) {
        self.pollInterval = pollInterval
        fallback = TTLSchedule(ttl: ttl)
        activeRetryCapSeconds = min(pollInterval, ttl).wholeSeconds
        self.events = events
        state = Mutex(State(isActive: active, latest: latest))
    }

    private var expected: (day: RateDate, at: Date)? {
        state.withLock { $0.expected }
    }

    func expiry(fetchedAt: Date) -> Date {
        expected?.at ?? fallback.expiry(fetchedAt: fetchedAt)
    }

    func nextContact(fetchedAt: Date) -> Date {
        guard let (day, expectedAt) = expected else { return fallback.nextContact(fetchedAt: fetchedAt) }
        if fetchedAt < expectedAt { return expectedAt }
        // Polling: every interval, and once more at the cutoff, where `settle` gives up on the day.
        let cutoff = ECBCalendar.cutoff(on: day)
        let next = fetchedAt.addingTimeInterval(pollInterval.timeInterval)
        return fetchedAt < cutoff ? min(next, cutoff) : next
    }

    /// After a contact at or past the awaited day's cutoff with no newer day stored, that
    /// publication is missed; so is every later one whose cutoff has passed too (a start after
    /// days away), counted once.
    func settle(fetchedAt: Date) {
        let missed = state.withLock { state -> Bool in
            var advanced = false
            while let (day, _) = state.expected, ECBCalendar.cutoff(on: day) <= fetchedAt {
                state.missedThrough = day
                state.expect()
                advanced = true
            }
            if advanced { state.missed += 1 }
            return advanced
        }
        if missed { events.publicationMissed(.rates) }
    }

    var retryCap: Duration {
        state.withLock { $0.isActive } ? min(pollInterval, fallback.ttl) : fallback.ttl
    }

    var retryCapSeconds: Int {
        state.withLock { $0.isActive } ? activeRetryCapSeconds : fallback.retryCapSeconds
    }

    var ttl: Duration { fallback.ttl }

    /// Told the newest stored day after each change, and whether the feed is the ECB's (`auto`).
    func observe(latest: RateDate?, isECB: Bool? = nil) {
        state.withLock { state in
            state.latest = latest
            if let isECB { state.isActive = isECB }
            state.expect()
        }
    }

    /// What `/status` shows: whether the calendar is followed, the next expected publication, missed ones.
    var report: (isActive: Bool, nextPublication: Date?, missed: Int) {
        state.withLock { state in (state.isActive, state.expected?.at, state.missed) }
    }
}
