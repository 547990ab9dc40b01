import LarderRates

/// The calendar arithmetic of Frankfurter v2's queries, on day numbers (`RateDate.dayNumber`).
public enum V2Dates {
    /// How far back a silent quote is carried forward (its `CarryForward::LOOKBACK_DAYS`).
    public static let lookbackDays = 14

    /// Ruby's `Date#>>`: `months` later, the day clamped to the month's last.
    public static func addingMonths(_ day: Int, _ months: Int) -> Int {
        guard let date = RateDate(dayNumber: day) else { return day }
        let total = date.year * 12 + (date.month - 1) + months
        let year = total / 12, month = total % 12 + 1
        guard year <= 9999 else { return RateDate.lastDay.dayNumber }
        var clamped = date.day
        while clamped > 28, RateDate(year: year, month: month, day: clamped) == nil { clamped -= 1 }
        return RateDate(year: year, month: month, day: clamped)?.dayNumber ?? day
    }

    /// Frankfurter's weekly bucket (SQLite `date(strftime('%Y-01-01'), '+' || strftime('%W') * 7 || ' days')`):
    /// January 1st plus seven days per Monday-started week number, which is not always a Monday.
    public static func weekBucket(_ day: Int) -> Int {
        guard let date = RateDate(dayNumber: day), let january = RateDate(year: date.year, month: 1, day: 1) else {
            return day
        }
        let dayOfYear = day - january.dayNumber
        let mondayBased = date.weekday - 1
        let week = (dayOfYear + 7 - mondayBased) / 7
        return january.dayNumber + week * 7
    }

    /// The first of the month.
    public static func monthBucket(_ day: Int) -> Int {
        guard let date = RateDate(dayNumber: day) else { return day }
        return RateDate(year: date.year, month: date.month, day: 1)?.dayNumber ?? day
    }
}
