public import Foundation

extension RFC3339 {
    /// The instant in UTC, `2026-04-30T17:22:05Z`, with `.123` milliseconds when `milliseconds` is
    /// true and the instant has some (else the second, rounded down).
    ///
    /// Plain arithmetic, not a date formatter: this runs for every document of a listing, and
    /// Foundation's formatters load ICU, which costs milliseconds each.
    public static func string(_ date: Date, milliseconds: Bool = true) -> String {
        // Clamped to years 1...9999 (NaN to 1970): any instant writes as a date, none traps.
        let instant = date.timeIntervalSince1970.isNaN ? 0
            : min(max(date.timeIntervalSince1970, TimeInterval(WholeSeconds.first)), TimeInterval(WholeSeconds.last) + 0.999)
        let totalMillis = Int64((instant * 1000).rounded())
        var seconds = totalMillis.floorDivided(by: 1000)
        let millis = milliseconds ? Int(totalMillis - seconds * 1000) : 0
        if !milliseconds { seconds = Int64(instant.rounded(.down)) }
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        append(year, digits: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        append(month, digits: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        append(day, digits: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2, to: &text)
        if millis != 0 {
            text.append(UInt8(ascii: "."))
            append(millis, digits: 3, to: &text)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`).
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func append(_ value: Int, digits: Int, to text: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = max(0, value)
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor * 10
            divisor /= 10
        }
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (instants before 1970 stay on the right day).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
