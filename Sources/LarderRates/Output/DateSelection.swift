/// The date part of a rates path (SPEC §3, Frankfurter v1): one day `2020-01-02`, a range
/// `2020-01-01..2020-01-31`, or an open range `2020-01-01..` that ends at the latest stored day.
public enum DateSelection: Sendable, Hashable {
    case day(RateDate)
    case range(start: RateDate, end: RateDate?)

    /// True when `text` has the shape of a date or a range (digits and dashes where a date has them),
    /// so `/{date}` routes claim `/2020-13-45` (and answer 400) but leave `/nowhere` to the 404.
    public static func looksLikeSelection(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 || bytes.count == 12 || bytes.count == 22 else { return false }
        func isDateShaped(_ part: ArraySlice<UInt8>) -> Bool {
            part.enumerated().allSatisfy { offset, byte in
                offset == 4 || offset == 7 ? byte == UInt8(ascii: "-") : byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            }
        }
        guard isDateShaped(bytes[0..<10]) else { return false }
        if bytes.count == 10 { return true }
        guard bytes[10] == UInt8(ascii: "."), bytes[11] == UInt8(ascii: ".") else { return false }
        return bytes.count == 12 || isDateShaped(bytes[12..<22])
    }

    /// Parses a day or a range; the error says what is wrong in words a client can act on.
    public static func parse(_ text: String) throws(RatesQueryError) -> DateSelection {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let day = RateDate(text) else { throw .invalidDate(notADate(text)) }
            return .day(day)
        case 3 where parts[1].isEmpty:
            guard let start = RateDate(parts[0]) else { throw .invalidDate(notADate(String(parts[0]))) }
            if parts[2].isEmpty { return .range(start: start, end: nil) }
            guard let end = RateDate(parts[2]) else { throw .invalidDate(notADate(String(parts[2]))) }
            guard start <= end else {
                throw .invalidDate("the range \(start)..\(end) ends before it starts")
            }
            return .range(start: start, end: end)
        default:
            throw .invalidDate(
                "'\(text.prefix(40))' is not a date or a range: use YYYY-MM-DD, YYYY-MM-DD..YYYY-MM-DD or YYYY-MM-DD..")
        }
    }

    private static func notADate(_ text: String) -> String {
        "'\(text.prefix(40))' is not a date: use YYYY-MM-DD (a real day), or a range start..end"
    }
}
