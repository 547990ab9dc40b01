import Foundation
import LarderRates
import Synchronization

/// Stored days left out of answers because they lie after the bounds' last day ("today + 1"): kept on
/// disk, and taken back, without a restart, as soon as the bound passes them (SPEC §4.11). A day
/// before the feed's first plausible day, or not a date at all, is not held here: no passing of time
/// brings it back.
final class HeldOutDays: Sendable {
    private let days: Mutex<[RateDate]>

    init(_ days: [RateDate]) {
        self.days = Mutex(days.sorted())
    }

    var isEmpty: Bool { days.withLock { $0.isEmpty } }

    /// Removes and answers the days `bounds` now hold; the rest stay held out.
    func taken(within bounds: RateBounds) -> [RateDate] {
        days.withLock { days in
            let due = days.filter(bounds.contains)
            days.removeAll(where: bounds.contains)
            return due
        }
    }

    /// Puts back days that could not be read this time, to be tried at the next refresh.
    func putBack(_ returned: [RateDate]) {
        days.withLock { days in days = (days + returned).sorted() }
    }
}
