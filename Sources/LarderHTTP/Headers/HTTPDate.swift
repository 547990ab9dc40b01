import Glibc

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate out; IMF-fixdate, RFC 850 and asctime in.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for seconds since 1970.
    public static func format(secondsSince1970 seconds: Int) -> String {
        // Years 1...9999 only: past them gmtime_r overflows, and `tm_year + 1900` would trap.
        var time = time_t(min(max(seconds, -62_135_596_800), 253_402_300_799))
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(String(repeating: "0", count: max(0, 4 - year.count)) + year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Seconds since 1970 of any of the three HTTP date forms, or nil.
    public static func parse(_ text: String) -> Int? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" }).map(String.init)
        let day, month, year, hour, minute, second: String
        switch tokens.count {
        case 8 where tokens[7] == "GMT":  // IMF-fixdate or RFC 850
            (day, month, year, hour, minute, second) = (tokens[1], tokens[2], tokens[3], tokens[4], tokens[5], tokens[6])
        case 7:  // asctime
            (month, day, hour, minute, second, year) = (tokens[1], tokens[2], tokens[3], tokens[4], tokens[5], tokens[6])
        default:
            return nil
        }
        guard let monthIndex = months.firstIndex(of: month),
              let d = Int32(day), (1...31).contains(d),
              var y = Int32(year), year.count == 4 || year.count == 2,
              let h = Int32(hour), (0...23).contains(h),
              let m = Int32(minute), (0...59).contains(m),
              let s = Int32(second), (0...60).contains(s)
        else { return nil }
        if year.count == 2 { y += y >= 70 ? 1900 : 2000 }
        var parts = tm()
        parts.tm_year = y - 1900
        parts.tm_mon = Int32(monthIndex)
        parts.tm_mday = d
        parts.tm_hour = h
        parts.tm_min = m
        parts.tm_sec = s
        // A day the month does not have (31 November) is no date: `timegm` normalizes its midnight
        // into the next month, which shows (the time of day is left out, so `:60` may still roll).
        var midnight = parts
        (midnight.tm_hour, midnight.tm_min, midnight.tm_sec) = (0, 0, 0)
        _ = timegm(&midnight)
        guard midnight.tm_mday == d else { return nil }
        return Int(timegm(&parts))
    }
}
