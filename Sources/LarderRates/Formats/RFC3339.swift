import Foundation

/// Strict RFC 3339 timestamps (`2026-05-01T12:00:00Z`, `2026-04-30T17:22:05.123+02:00`) as instants.
///
/// Accepted: a full date, `T` (or `t`), `HH:MM:SS`, an optional fraction of 1–9 digits, then `Z`
/// (or `z`) or a `±HH:MM` offset. Refused: a missing offset (the instant would be ambiguous), a space
/// instead of `T`, and leap second `:60`, which `Date` cannot represent.
enum RFC3339 {
    static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, let day = RateDate(String(decoding: bytes[0..<10], as: UTF8.self)),
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
        let seconds = Double(hour * 3600 + minute * 60 + second - offset) + fraction
        return day.startInstant.addingTimeInterval(seconds)
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

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
