/// Ruby's `String#to_f`, which Frankfurter reads `amount` with: the longest leading decimal number
/// (after blanks; `_` between digits; an optional fraction and exponent), and 0 when there is none.
enum RubyFloat {
    /// At most this many bytes are read: no amount anyone sends is longer, and the scan stays bounded.
    static let limit = 64

    static func parse(_ text: String) -> Double {
        let bytes = Array(text.utf8.prefix(limit))
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(bytes[index]) { index += 1 }
        var number: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            number.append(bytes[index])
            index += 1
        }
        /// Digits, with single underscores between them; appends them and says whether there was one.
        func digits() -> Bool {
            guard isDigit(index) else { return false }
            while isDigit(index) {
                number.append(bytes[index])
                index += 1
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "_"), isDigit(index + 1) { index += 1 }
            }
            return true
        }
        let whole = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: "."), isDigit(index + 1) {
            number.append(UInt8(ascii: "."))
            index += 1
            _ = digits()
        } else if !whole {
            return 0
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            var exponent: [UInt8] = [UInt8(ascii: "e")]
            var at = index + 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") || bytes[at] == UInt8(ascii: "+") {
                exponent.append(bytes[at])
                at += 1
            }
            if isDigit(at) {
                index = at
                number += exponent
                _ = digits()
            }
        }
        return Double(String(decoding: number, as: UTF8.self)) ?? 0
    }
}
