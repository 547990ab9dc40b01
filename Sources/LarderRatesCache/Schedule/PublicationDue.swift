import Foundation
import LarderRates

/// Which day an upstream should hold by a given instant, by its publisher's schedule (SPEC §4.12): an
/// upstream whose answer leaves the store older than that day is behind, and the same refresh asks
/// the next. The ECB calendar is one; a provider's cadence (a Frankfurter provider that publishes
/// weekly, say) is another, for a later change to add as a conformance of its own.
protocol PublicationDue: Sendable {
    /// The newest day published by `now`; nil when the schedule knows none (no upstream is judged behind).
    func dueDay(at now: Date) -> RateDate?
}

extension ECBSchedule: PublicationDue {
    /// The newest TARGET working day whose 16:00 Europe/Berlin publication (plus the margin) has
    /// passed; nil until the feed is known to follow the calendar. On a Saturday that is Friday, so a
    /// primary holding Friday is not second-guessed.
    func dueDay(at now: Date) -> RateDate? {
        guard report.isActive else { return nil }
        let today = ECBCalendar.berlinDay(containing: now)
        if ECBCalendar.isWorkingDay(today), ECBCalendar.publication(on: today).addingTimeInterval(Self.margin) <= now {
            return today
        }
        return ECBCalendar.previousWorkingDay(before: today)
    }
}
