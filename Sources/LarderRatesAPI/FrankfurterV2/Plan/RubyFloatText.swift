/// A double written as Ruby's `Float#to_s` writes it (and so Oj's compat mode, and Ruby's CSV):
/// the shortest digits that read back as the same double, with `.0` on whole numbers and an
/// exponent (`5.7e-05`, `1.0e+15`) below 0.0001 or from 10^15.
enum RubyFloatText {
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return value.description }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let sign = value < 0 ? "-" : ""
        // Swift's description has the shortest round-trip digits; only the notation differs.
        let description = abs(value).description
        var mantissa = Substring(description)
        var exponent = 0
        if let e = description.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = description[..<e]
            exponent = Int(description[description.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var digits = Array(parts[0]) + (parts.count > 1 ? Array(parts[1]) : [])
        var point = parts[0].count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        if point < -3 || point > 15 {
            let rest = digits.count > 1 ? String(digits[1...]) : "0"
            let power = point - 1
            let powerText = String(abs(power))
            return sign + String(digits[0]) + "." + rest + "e" + (power < 0 ? "-" : "+")
                + (powerText.count < 2 ? "0" : "") + powerText
        }
        if point <= 0 {
            return sign + "0." + String(repeating: "0", count: -point) + String(digits)
        }
        if point >= digits.count {
            return sign + String(digits) + String(repeating: "0", count: point - digits.count) + ".0"
        }
        return sign + String(digits[..<point]) + "." + String(digits[point...])
    }
}
