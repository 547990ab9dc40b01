public import Foundation
import LarderFormats

/// The ECB's publication calendar (SPEC §4.10): TARGET working days, 16:00 Europe/Berlin.
///
/// Everything here is integer arithmetic on day numbers: no Foundation `Calendar` or `TimeZone`,
/// so the answer cannot change with (or without) the tzdata of the machine Larder runs on.
public enum ECBCalendar {
    private static let secondsPerDay = 86_400

    /// Closing days of TARGET2: Saturdays, Sundays, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December.
    public static func isWorkingDay(_ day: RateDate) -> Bool {
        guard day.weekday <= 5 else { return false }
        switch (day.month, day.day) {
        case (1, 1), (5, 1), (12, 25), (12, 26): return false
        default: break
        }
        // Easter moves between 22 March and 25 April; only those months need the computation.
        guard day.month == 3 || day.month == 4 else { return true }
        guard let easter = easterSunday(year: day.year) else { return true }
        let offset = day.dayNumber - easter.dayNumber
        return offset != -2 && offset != 1
    }

    /// The first working day strictly after `day`; nil past the calendar's last day (9999-12-31).
    public static func nextWorkingDay(after day: RateDate) -> RateDate? {
        var candidate = day.adding(days: 1)
        while let day = candidate, !isWorkingDay(day) { candidate = day.adding(days: 1) }
        return candidate
    }

    /// The last working day strictly before `day`; nil before the calendar's first day (0001-01-01).
    public static func previousWorkingDay(before day: RateDate) -> RateDate? {
        var candidate = day.adding(days: -1)
        while let day = candidate, !isWorkingDay(day) { candidate = day.adding(days: -1) }
        return candidate
    }

    /// Easter Sunday of `year` (Gregorian; anonymous Gregorian algorithm); nil outside years 1...9999.
    public static func easterSunday(year: Int) -> RateDate? {
        guard (1...9999).contains(year) else { return nil }
        // Meeus/Jones/Butcher: a = place in the Metonic cycle, h = epact-derived full moon,
        // l = days from that full moon to the following Sunday, m = the rare late-moon correction.
        let a = year % 19
        let b = year / 100, c = year % 100
        let d = b / 4, e = b % 4
        let f = (b + 8) / 25
        let g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        // Always 22 March to 25 April, so the day exists.
        return RateDate(year: year, month: month, day: day)
    }

    /// The instant of `hour`:`minute` Europe/Berlin wall-clock time on `day` (CET UTC+1, CEST UTC+2 from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October — the EU rule since 1996).
    ///
    /// A wall time that occurs twice (autumn, 02:00–03:00) gives the first, summer-time instant;
    /// one that never occurs (spring, 02:00–03:00) gives the instant an hour later on the clock.
    public static func berlinTime(_ day: RateDate, hour: Int, minute: Int = 0) -> Date {
        let wall = day.dayNumber * secondsPerDay + hour * 3600 + minute * 60
        // Try summer time first: it is right exactly when the instant it yields is in summer time.
        let summer = wall - 7200
        let utc = berlinOffset(atSeconds: summer) == 7200 ? summer : wall - 3600
        return Date(timeIntervalSince1970: TimeInterval(utc))
    }

    /// 16:00 Europe/Berlin on `day`: when the reference rates of `day` are published.
    public static func publication(on day: RateDate) -> Date {
        berlinTime(day, hour: 16)
    }

    /// 18:00 Europe/Berlin on `day`: after this a publication still missing is given up.
    public static func cutoff(on day: RateDate) -> Date {
        berlinTime(day, hour: 18)
    }

    /// The Europe/Berlin calendar day containing `instant`.
    public static func berlinDay(containing instant: Date) -> RateDate {
        let utc = unixSeconds(instant)
        let local = utc + berlinOffset(atSeconds: utc)
        // unixSeconds clamps to the last second whose Berlin day is still in year 9999.
        return RateDate(dayNumber: floorDivide(local, secondsPerDay)) ?? .lastDay
    }

    /// Berlin's UTC offset in seconds at `instant` (3600 or 7200).
    public static func berlinOffset(at instant: Date) -> Int {
        berlinOffset(atSeconds: unixSeconds(instant))
    }

    // MARK: - Time zone rule

    /// The offset at `utc` seconds since 1970; the EU rule is applied to every year, also before 1996.
    private static func berlinOffset(atSeconds utc: Int) -> Int {
        // Summer time never touches a year boundary, so the UTC year decides which transitions apply.
        let year = civil(dayNumber: floorDivide(utc, secondsPerDay)).year
        let start = lastSunday(ofMonth: 3, year: year) * secondsPerDay + 3600
        let end = lastSunday(ofMonth: 10, year: year) * secondsPerDay + 3600
        return (start..<end).contains(utc) ? 7200 : 3600
    }

    /// The day number of the last Sunday of a 31-day month (March and October both are).
    private static func lastSunday(ofMonth month: Int, year: Int) -> Int {
        let last = RateDate.dayNumber(year: year, month: month, day: 31)
        return last - RateDate.isoWeekday(dayNumber: last) % 7
    }

    /// Whole seconds since 1970 (rounded down), clamped to years 1...9999 so no `Date` can trap.
    private static func unixSeconds(_ instant: Date) -> Int {
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds > 0 ? lastSecond : firstSecond }
        return Int(min(max(seconds, TimeInterval(firstSecond)), TimeInterval(lastSecond)))
    }

    /// 0001-01-01T00:00:00Z, the first second of `RateDate`'s range.
    private static let firstSecond = RateDate.dayNumber(year: 1, month: 1, day: 1) * secondsPerDay
    /// The last second whose Berlin day is still in year 9999 (Berlin is at most 2 hours ahead).
    private static let lastSecond = RateDate.dayNumber(year: 10_000, month: 1, day: 1) * secondsPerDay - 7200 - 1
}

extension RateDate {
    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int {
        Self.dayNumber(year: year, month: month, day: day)
    }

    /// The day `dayNumber` days after 1970-01-01; nil outside years 1...9999.
    public init?(dayNumber: Int) {
        guard (Self.firstDayNumber...Self.lastDayNumber).contains(dayNumber) else { return nil }
        let parts = civil(dayNumber: dayNumber)
        self.init(year: parts.year, month: parts.month, day: parts.day)
    }

    /// The day `days` later (earlier when negative); nil past either end of years 1...9999.
    public func adding(days: Int) -> RateDate? {
        let (sum, overflow) = dayNumber.addingReportingOverflow(days)
        return overflow ? nil : RateDate(dayNumber: sum)
    }

    /// The day numbers of `firstDay` and `lastDay`.
    static let firstDayNumber = dayNumber(year: 1, month: 1, day: 1)
    static let lastDayNumber = dayNumber(year: 9999, month: 12, day: 31)

    /// The ISO weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        Self.isoWeekday(dayNumber: dayNumber)
    }

    /// The shared proleptic Gregorian day count (LarderFormats' RFC 3339 code uses the same).
    fileprivate static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        Int(RFC3339.days(fromCivil: year, month, day))
    }

    /// 1970-01-01 was a Thursday (4).
    fileprivate static func isoWeekday(dayNumber: Int) -> Int {
        floorModulo(dayNumber + 3, 7) + 1
    }
}

/// The date of a day number: the inverse of `RateDate.dayNumber(year:month:day:)`, any integer in.
private func civil(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
    RFC3339.civil(fromDays: Int64(dayNumber))
}

/// Division rounding toward minus infinity: Swift's `/` rounds toward zero, wrong before 1970.
private func floorDivide(_ value: Int, _ divisor: Int) -> Int {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
}

/// The remainder matching `floorDivide`, always in 0..<divisor.
private func floorModulo(_ value: Int, _ divisor: Int) -> Int {
    value - floorDivide(value, divisor) * divisor
}
