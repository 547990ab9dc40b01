/// Small byte-level helpers shared by the format parsers, which all work on raw bodies.
public enum ByteText {
    /// The UTF-8 encoding of U+FEFF, which some upstreams put before their first byte.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The JSON/XML insignificant whitespace: space, tab, CR, LF.
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The index just past a leading UTF-8 BOM, if there is one.
    public static func skipByteOrderMark(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
    }

    /// The index of the first byte after a leading UTF-8 BOM and whitespace.
    public static func skipByteOrderMarkAndWhitespace(_ bytes: [UInt8]) -> Int {
        var index = skipByteOrderMark(bytes)
        while index < bytes.endIndex, isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// Shows a short piece of untrusted text in an error message: printable, quoted-safe, bounded.
    public static func excerpt(_ text: some StringProtocol, limit: Int = 40) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if result.unicodeScalars.count >= limit {
                result += "…"
                break
            }
            let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            result += isControl ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : String(scalar)
        }
        return result
    }
}
