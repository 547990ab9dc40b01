import Foundation
import LarderRates
import Testing

/// The day named `text` (`YYYY-MM-DD`); the tables below only hold real days.
private func day(_ text: String) -> RateDate {
    RateDate(text)!
}

/// The instant named `text`, exactly `YYYY-MM-DDTHH:MM:SSZ`, counted by hand so the expected
/// values in these tests do not come from the calendar code they check.
private func utc(_ text: String) -> Date {
    let bytes = Array(text.utf8)
    precondition(bytes.count == 20 && bytes[10] == UInt8(ascii: "T") && bytes[19] == UInt8(ascii: "Z"), "bad instant \(text)")
    func number(_ range: Range<Int>) -> Int {
        range.reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) }
    }
    let (year, month, dayOfMonth) = (number(0..<4), number(5..<7), number(8..<10))
    // Days before this one: whole years since 1970, then whole months of this year.
    func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }
    let monthLengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    let days = (1970..<year).reduce(0) { $0 + (isLeap($1) ? 366 : 365) }
        + monthLengths.prefix(month - 1).reduce(0, +) + dayOfMonth - 1
    let seconds = days * 86_400 + number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19)
    return Date(timeIntervalSince1970: TimeInterval(seconds))
}

@Suite("ECB publication calendar: TARGET days, Easter, Europe/Berlin time (SPEC §4.10)")
struct ECBCalendarTests {
    @Test func instantHelperCountsSecondsSince1970() {
        #expect(utc("2026-11-21T09:30:00Z") == Date(timeIntervalSince1970: 1_795_253_400))
        #expect(utc("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
    }

    // MARK: - Day arithmetic

    @Test(arguments: [
        ("1970-01-01", 0), ("2000-03-01", 11_017), ("1999-01-04", 10_595),
        ("0001-01-01", -719_162), ("9999-12-31", 2_932_896), ("2026-11-24", 20_781),
    ] as [(String, Int)])
    func dayNumbersRoundTrip(text: String, number: Int) {
        #expect(day(text).dayNumber == number)
        #expect(RateDate(dayNumber: number) == day(text))
    }

    @Test(arguments: [
        ("2026-11-23", 1), ("2026-11-24", 2), ("1970-01-01", 4), ("1999-01-04", 1),
        ("2026-11-21", 6), ("2026-11-22", 7), ("0001-01-01", 1),
    ] as [(String, Int)])
    func weekdaysAreISO(text: String, weekday: Int) {
        #expect(day(text).weekday == weekday)
    }

    @Test func addingDaysCrossesMonthsYearsAndLeapDays() {
        #expect(day("2026-12-31").adding(days: 1) == day("2027-01-01"))
        #expect(day("2024-02-28").adding(days: 1) == day("2024-02-29"))
        #expect(day("2100-02-28").adding(days: 1) == day("2100-03-01"))
        #expect(day("1970-01-01").adding(days: -1) == day("1969-12-31"))
        #expect(day("2026-11-24").adding(days: 0) == day("2026-11-24"))
    }

    // MARK: - Working days

    @Test(arguments: [
        (2024, "2024-03-31"), (2025, "2025-04-20"), (2026, "2026-04-05"),
        (2027, "2027-03-28"), (2038, "2038-04-25"), (2285, "2285-03-22"),
    ] as [(Int, String)])
    func easterSunday(year: Int, expected: String) {
        #expect(ECBCalendar.easterSunday(year: year) == day(expected))
    }

    @Test(arguments: [
        "2027-01-01", "2027-03-26", "2027-03-29", "2026-05-01", "2026-12-25", "2026-12-26",
        "2026-04-03", "2026-04-06", "2026-11-21", "2026-11-22",
    ])
    func closingDays(text: String) {
        #expect(!ECBCalendar.isWorkingDay(day(text)))
    }

    @Test(arguments: [
        "2027-03-25", "2027-03-30", "2026-11-20", "2026-11-23", "2026-12-24", "2026-12-31",
        "2027-01-04", "2026-04-02", "2026-04-07", "2026-05-04",
    ])
    func workingDays(text: String) {
        #expect(ECBCalendar.isWorkingDay(day(text)))
    }

    @Test(arguments: [
        ("2027-03-25", "2027-03-30"),  // Thursday before Good Friday and Easter Monday
        ("2026-11-20", "2026-11-23"),  // Friday to Monday
        ("2026-11-23", "2026-11-24"),
        ("2026-12-24", "2026-12-28"),  // Christmas Day and Boxing Day, then the weekend
        ("2026-12-31", "2027-01-04"),  // 1 January 2027 is a Friday
        ("2026-04-30", "2026-05-04"),  // 1 May 2026 is a Friday
    ] as [(String, String)])
    func nextWorkingDay(after: String, expected: String) {
        #expect(ECBCalendar.nextWorkingDay(after: day(after)) == day(expected))
    }

    @Test(arguments: [
        ("2027-03-30", "2027-03-25"), ("2026-11-23", "2026-11-20"), ("2027-01-04", "2026-12-31"),
        ("2026-12-28", "2026-12-24"),
    ] as [(String, String)])
    func previousWorkingDay(before: String, expected: String) {
        #expect(ECBCalendar.previousWorkingDay(before: day(before)) == day(expected))
    }

    // MARK: - Europe/Berlin time

    @Test(arguments: [
        "2026-11-23T15:00:00Z",  // winter, CET
        "2026-07-01T14:00:00Z",  // summer, CEST
        "2026-03-27T15:00:00Z",  // Friday before summer time begins
        "2026-03-29T14:00:00Z",  // the Sunday it begins
        "2026-03-30T14:00:00Z",  // the Monday after
        "2026-10-23T14:00:00Z",  // Friday before summer time ends
        "2026-10-25T15:00:00Z",  // the Sunday it ends
        "2026-10-26T15:00:00Z",  // the Monday after
        "2027-03-26T15:00:00Z",
        "2027-03-28T14:00:00Z",
        "2027-03-29T14:00:00Z",
    ])
    func publicationAt16Berlin(expected: String) {
        // The day is the instant's own UTC date: 16:00 in Berlin is 14:00 or 15:00 UTC the same day.
        #expect(ECBCalendar.publication(on: day(String(expected.prefix(10)))) == utc(expected))
    }

    @Test func cutoffAt18Berlin() {
        #expect(ECBCalendar.cutoff(on: day("2026-11-23")) == utc("2026-11-23T17:00:00Z"))
        #expect(ECBCalendar.cutoff(on: day("2026-07-01")) == utc("2026-07-01T16:00:00Z"))
    }

    @Test func wallTimesAroundTheTransitions() {
        // Spring: 02:00–03:00 does not exist; 01:59 is CET, 03:00 is CEST.
        #expect(ECBCalendar.berlinTime(day("2026-03-29"), hour: 1, minute: 59) == utc("2026-03-29T00:59:00Z"))
        #expect(ECBCalendar.berlinTime(day("2026-03-29"), hour: 3) == utc("2026-03-29T01:00:00Z"))
        // Autumn: 02:30 happens twice; the first (summer-time) one is taken. 03:00 is CET again.
        #expect(ECBCalendar.berlinTime(day("2026-10-25"), hour: 2, minute: 30) == utc("2026-10-25T00:30:00Z"))
        #expect(ECBCalendar.berlinTime(day("2026-10-25"), hour: 3) == utc("2026-10-25T02:00:00Z"))
    }

    @Test(arguments: [
        ("2026-03-29T00:59:59Z", 3600), ("2026-03-29T01:00:00Z", 7200),
        ("2026-10-25T00:59:59Z", 7200), ("2026-10-25T01:00:00Z", 3600),
        ("2027-03-28T00:59:59Z", 3600), ("2027-03-28T01:00:00Z", 7200),
        ("2026-01-15T12:00:00Z", 3600), ("2026-07-15T12:00:00Z", 7200),
    ] as [(String, Int)])
    func berlinOffsetAtTheTransitions(instant: String, offset: Int) {
        #expect(ECBCalendar.berlinOffset(at: utc(instant)) == offset)
    }

    @Test(arguments: [
        ("2026-11-23T23:30:00Z", "2026-11-24"),  // CET: already the next day in Berlin
        ("2026-11-23T22:59:59Z", "2026-11-23"),
        ("2026-07-01T21:59:59Z", "2026-07-01"),  // CEST: two hours ahead
        ("2026-07-01T22:00:00Z", "2026-07-02"),
        ("2026-12-31T23:00:00Z", "2027-01-01"),
    ] as [(String, String)])
    func berlinDay(instant: String, expected: String) {
        #expect(ECBCalendar.berlinDay(containing: utc(instant)) == day(expected))
    }

    @Test func extremeInstantsDoNotTrap() {
        _ = ECBCalendar.berlinDay(containing: .distantPast)
        _ = ECBCalendar.berlinDay(containing: .distantFuture)
        #expect(ECBCalendar.berlinDay(containing: Date(timeIntervalSince1970: .infinity)) == day("9999-12-31"))
        #expect(ECBCalendar.berlinOffset(at: Date(timeIntervalSince1970: .nan)) == 3600)
    }
}
