/// A `content_type` value must be an RFC 9110 media type: `type/subtype` then `; name=value`
/// parameters (value a token or a quoted string), ASCII only, no control characters, at most 255
/// bytes. It ends up in a response header, so anything looser could smuggle header syntax.
enum MediaTypeRule {
    static let maxLength = 255

    static func isValid(_ text: String) -> Bool {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard scanner.bytes.count <= maxLength, scanner.token(), scanner.take(UInt8(ascii: "/")), scanner.token() else {
            return false
        }
        while true {
            scanner.skipBlanks()
            if scanner.atEnd { return true }
            guard scanner.take(UInt8(ascii: ";")) else { return false }
            scanner.skipBlanks()
            // RFC 9110 allows an empty parameter (`text/plain;`); a started one must be whole.
            if scanner.atEnd || scanner.peek == UInt8(ascii: ";") { continue }
            guard scanner.token(), scanner.take(UInt8(ascii: "=")), scanner.quotedString() || scanner.token() else {
                return false
            }
        }
    }

    /// A cursor over the bytes; each method consumes what it matched and reports whether it did.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func skipBlanks() {
            while peek == 0x20 || peek == 0x09 { index += 1 }
        }

        /// One or more tchar: ALPHA DIGIT and ``!#$%&'*+-.^_`|~``.
        mutating func token() -> Bool {
            let start = index
            while let byte = peek, Self.isTokenByte(byte) { index += 1 }
            return index > start
        }

        /// `"…"` holding visible ASCII, space and tab, with `\` escaping one such byte.
        mutating func quotedString() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let escaped = peek, Self.isQuotable(escaped) else { return false }
                    index += 1
                case _ where Self.isQuotable(byte): continue
                default: return false
                }
            }
            return false
        }

        private static func isQuotable(_ byte: UInt8) -> Bool {
            byte == 0x09 || (0x20...0x7E).contains(byte)
        }

        private static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }
    }
}
