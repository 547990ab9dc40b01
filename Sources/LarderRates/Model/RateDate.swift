public import Foundation

/// A calendar day `YYYY-MM-DD` (UTC), the key of a rate set; ordered by time.
public struct RateDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Parses exactly `YYYY-MM-DD` naming a real day; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
              let day = Self.number(bytes[8..<10]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// nil unless the three numbers name a day of the proleptic Gregorian calendar from year 1.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.init(unchecked: year, month, day)
    }

    /// Three numbers already known to name a day.
    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// 0001-01-01 and 9999-12-31, the ends of the calendar this type covers.
    public static let firstDay = RateDate(unchecked: 1, 1, 1)
    public static let lastDay = RateDate(unchecked: 9999, 12, 31)

    /// The UTC day containing `instant`, clamped to years 1...9999 (total: any `Date` in, no trap).
    public init(containing instant: Date) {
        let seconds = instant.timeIntervalSince1970
        let days = seconds.isNaN ? 0 : (seconds / 86_400).rounded(.down)
        let clamped = Int(min(max(days, TimeInterval(Self.firstDayNumber)), TimeInterval(Self.lastDayNumber)))
        // In range by the clamp, so the day always exists.
        self = RateDate(dayNumber: clamped) ?? RateDate.lastDay
    }

    /// Midnight UTC at the start of this day.
    public var startInstant: Date {
        Date(timeIntervalSince1970: TimeInterval(dayNumber) * 86_400)
    }

    public var description: String {
        // Digit by digit: String(format:) goes through Foundation's locale machinery.
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }

    public static func < (lhs: RateDate, rhs: RateDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
