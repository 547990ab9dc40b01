import Foundation
import LarderFormats

/// How the page writes times, sizes, durations and changes: absolute and in UTC, so the page reads
/// the same with JavaScript off (the script adds live ages) and its bytes change only with the data.
enum PageFormat {
    /// `<time datetime="2026-11-20T15:05:00Z" data-age>2026-11-20 15:05:00 UTC</time>`; the script
    /// adds the age after each `data-age` element.
    static func time(_ date: Date) -> String {
        let stamp = RFC3339.string(date, milliseconds: false)
        let text = stamp.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
        return "<time datetime=\"\(stamp)\" data-age>\(text)</time>"
    }

    /// `time(_:)`, or `absent` when there is no date.
    static func time(_ date: Date?, absent: String) -> String {
        date.map { time($0) } ?? absent
    }

    /// `90 s`, `15 min`, `1 h`, `2 d`: the largest unit that divides the duration.
    static func duration(seconds: Int) -> String {
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("min", 60)] where seconds >= size && seconds % size == 0 {
            return "\(seconds / size) \(unit)"
        }
        return "\(seconds) s"
    }

    /// `932 bytes`, `2.0 KiB`, `64.0 MiB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        for unit in ["KiB", "MiB", "GiB"] {
            if value < 1024 || unit == "GiB" { return String(format: "%.1f", value) + " " + unit }
            value /= 1024
        }
        return "\(bytes) bytes"
    }

    /// `10,000`.
    static func count(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return number < 0 ? "-" + grouped : grouped
    }

    /// `count` and the noun, in the plural unless one: `1 day`, `5 days`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(count(number)) \(number == 1 ? noun : noun + "s")"
    }

    /// The change from `previous` to `value` in per cent, two decimals, signed (`+0.12 %`, `−0.05 %`,
    /// `0.00 %`), with the direction for styling; computed in `Decimal`.
    static func change(from previous: Decimal, to value: Decimal) -> (text: String, direction: String) {
        guard previous != 0 else { return ("–", "none") }
        var percent = (value - previous) / previous * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &percent, 2, .plain)
        let magnitude = rounded < 0 ? -rounded : rounded
        var text = String(format: "%.2f", NSDecimalNumber(decimal: magnitude).doubleValue)
        if rounded > 0 { text = "+" + text } else if rounded < 0 { text = "\u{2212}" + text }
        return (text + " %", rounded > 0 ? "up" : rounded < 0 ? "down" : "same")
    }
}
