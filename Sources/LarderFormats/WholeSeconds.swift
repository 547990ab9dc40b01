public import Foundation

/// Seconds as an `Int`, total for any `Double`: NaN and values past the calendar's ends clamp
/// instead of trapping, so no instant read from an upstream or the store can stop the process.
public enum WholeSeconds {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants RFC 3339 and HTTP dates can write.
    public static let first = -62_135_596_800
    public static let last = 253_402_300_799

    /// `interval` rounded by `rule`, clamped to ±(the calendar's whole span); 0 for NaN.
    public static func of(_ interval: TimeInterval, _ rule: FloatingPointRoundingRule = .down) -> Int {
        guard !interval.isNaN else { return 0 }
        let span = TimeInterval(last - first)
        return Int(min(max(interval.rounded(rule), -span), span))
    }

    /// `date`'s seconds since 1970, rounded down and clamped to the instants a date can be written as.
    public static func since1970(_ date: Date) -> Int {
        min(max(of(date.timeIntervalSince1970), first), last)
    }
}
