import Foundation
import LarderRates
@testable import LarderRatesCache
import LarderTesting
import Testing

/// The day an upstream should hold by an instant under the ECB calendar (SPEC §4.12): the newest
/// TARGET working day whose 16:00 Europe/Berlin publication, plus the margin, has passed.
@Suite("Rates: the publication due by the ECB calendar")
struct PublicationDueTests {
    @Test(arguments: [
        // Friday 2026-11-27 (CET): before 16:05, Thursday's; from 16:05, Friday's.
        ("2026-11-27T15:04:59Z", "2026-11-26"),
        ("2026-11-27T15:05:00Z", "2026-11-27"),
        // The weekend and Monday morning: still Friday's.
        ("2026-11-28T12:00:00Z", "2026-11-27"),
        ("2026-11-30T09:00:00Z", "2026-11-27"),
        // Easter 2027 (CEST): Good Friday and Easter Monday are closed, so Thursday's until Tuesday's.
        ("2027-03-29T18:00:00Z", "2027-03-25"),
        ("2027-03-30T14:05:00Z", "2027-03-30"),
        // New Year's Day is closed; just after midnight in Berlin on the 2nd, still 31 December's.
        ("2027-01-01T23:30:00Z", "2026-12-31"),
    ])
    func theNewestDayPublishedBy(instant: String, due: String) {
        let schedule = ScheduleTests.schedule(latest: "2026-11-20")
        #expect(schedule.dueDay(at: ScheduleTests.utc(instant)) == RateDate(due))
    }

    @Test func nothingIsDueUntilTheFeedIsKnownToFollowTheCalendar() {
        let schedule = ECBSchedule(
            active: false, latest: RateDate("2026-11-20"), pollInterval: .seconds(600), ttl: .seconds(3600),
            events: NoCacheEvents())
        #expect(schedule.dueDay(at: ScheduleTests.utc("2026-11-27T16:00:00Z")) == nil)
        schedule.observe(latest: RateDate("2026-11-26"), isECB: true)
        #expect(schedule.dueDay(at: ScheduleTests.utc("2026-11-27T16:00:00Z")) == RateDate("2026-11-27"))
    }
}
