import Foundation
import LarderRates
import LarderServing

/// The "today" Frankfurter's lookbacks run from (SPEC §4.13): the real day while the copy is fresh;
/// while it is stale, the day of the last successful contact with an upstream, so an offline Larder
/// answers what Frankfurter answered then (RFC 5861's stale-if-error) instead of `[]` or a 404.
struct ServingDay: Sendable, Equatable {
    let today: RateDate
    /// True while the copy is stale: a requested date after `today` is answered as `today`.
    let isOffline: Bool

    init(today: RateDate, isOffline: Bool) {
        self.today = today
        self.isOffline = isOffline
    }

    /// The day of the state's copy: its `Cache-Status` says stale exactly when this is offline. `later`
    /// moves the clock's reading to SPEC §4.11's "today" (`BoundsClock`), so a clock set to 1970 still
    /// answers the newest data; offline, the day of the last contact is already a recorded instant.
    init(_ state: CacheState, later: (Date) -> Date = { $0 }) {
        let offline = state.isStale
        self.init(today: RateDate(containing: offline ? state.fetchedAt : later(state.now)), isOffline: offline)
    }

    /// The day `date` is answered as: itself, or `today` when offline and it is later.
    func answering(_ date: RateDate) -> RateDate {
        isOffline ? min(date, today) : date
    }

    /// Tells apart the answers kept for one day (offline ones clamp dates fresh ones of the same day do
    /// not); the day's number, cheaper to write than its text on every keyed request.
    var key: String {
        isOffline ? "\(today.dayNumber)offline" : String(today.dayNumber)
    }
}
