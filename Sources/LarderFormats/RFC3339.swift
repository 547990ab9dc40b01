public import Foundation

/// Strict RFC 3339 timestamps (`2026-05-01T12:00:00Z`, `2026-04-30T17:22:05.123+02:00`) as instants.
///
/// Accepted: a full date naming a real day of years 0001–9999, `T` (or `t`), `HH:MM:SS`, an optional
/// fraction of 1–9 digits, then `Z` (or `z`) or a `±HH:MM` offset. Refused: a missing offset (the
/// instant would be ambiguous), a space instead of `T`, leap second `:60`, which `Date` cannot
/// represent, and an instant that its offset moves out of years 0001–9999 (to the millisecond, as
/// `string(_:)` writes it), which no RFC 3339 timestamp could write back.
public enum RFC3339 {
    /// The instant `text` names, or nil when it is not exactly an RFC 3339 date-time.
    public static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes[0..<4], max: 9999), year >= 1,
              let month = number(bytes[5..<7], max: 12), month >= 1,
              let day = number(bytes[8..<10], max: daysIn(month: month, year: year)), day >= 1,
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let hour = number(bytes[11..<13], max: 23), let minute = number(bytes[14..<16], max: 59),
              let second = number(bytes[17..<19], max: 59) else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard (1...9).contains(index - start),
                  let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
            fraction = value
        }
        guard let offset = offsetSeconds(bytes[index...]) else { return nil }
        // Proleptic Gregorian days, as RFC 3339 means (Foundation's calendar turns Julian before 1582).
        let midnight = Double(days(fromCivil: year, month, day)) * 86_400
        let seconds = Double(hour * 3600 + minute * 60 + second - offset) + fraction
        let milliseconds = ((midnight + seconds) * 1000).rounded()
        guard milliseconds >= Double(days(fromCivil: 1, 1, 1)) * 86_400_000,
              milliseconds < Double(days(fromCivil: 10_000, 1, 1)) * 86_400_000 else { return nil }
        return Date(timeIntervalSince1970: midnight + seconds)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    public static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `Z`/`z` → 0, `+HH:MM` → east of UTC in seconds; nil for anything else, trailing bytes included.
    private static func offsetSeconds(_ zone: ArraySlice<UInt8>) -> Int? {
        if zone.elementsEqual([UInt8(ascii: "Z")]) || zone.elementsEqual([UInt8(ascii: "z")]) { return 0 }
        let bytes = Array(zone)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes[3] == UInt8(ascii: ":"),
              let hours = number(bytes[1..<3], max: 23), let minutes = number(bytes[4..<6], max: 59) else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return bytes[0] == UInt8(ascii: "+") ? seconds : -seconds
    }

    private static func number(_ digits: ArraySlice<UInt8>, max: Int) -> Int? {
        guard digits.allSatisfy(isDigit) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return value <= max ? value : nil
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
