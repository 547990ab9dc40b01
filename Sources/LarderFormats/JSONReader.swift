/// A strict RFC 8259 reader over raw bytes. Refuses invalid UTF-8, trailing content, duplicate keys
/// in one object, nesting deeper than `maxDepth`, lone surrogates, control characters in strings, and
/// numbers past `Double`'s range (as `JSONSerialization` does; `make fuzz` holds the two to agreeing).
/// Errors are plain messages; the caller adds the format prefix.
public struct JSONReader {
    /// The deepest nesting of arrays and objects accepted; no upstream format needs more than a few.
    public static let maxDepth = 32

    private let bytes: [UInt8]
    private var index: Int
    private var depth = 0
    /// Where `bytes` starts in the body it was cut from, so error positions are the body's.
    private var offset = 0

    /// Reads one complete document; an optional UTF-8 BOM is skipped (RFC 8259 §8.1 permits that).
    public static func read(_ bytes: [UInt8]) throws(FormatError) -> JSONValue {
        // Validating once up front lets strings be decoded from byte ranges without further checks.
        guard String(validating: bytes, as: UTF8.self) != nil else { throw FormatError("the body is not valid UTF-8") }
        var reader = JSONReader(bytes: bytes, index: ByteText.skipByteOrderMark(bytes))
        let value = try reader.value()
        reader.skipWhitespace()
        guard reader.index == bytes.endIndex else { throw reader.failure("unexpected content after the JSON value") }
        return value
    }

    /// Reads the one value starting at `bytes`' first byte: a piece a streaming scanner cut out of a
    /// larger body, at byte `offset` of it and inside `depth` open containers. Nothing is skipped before
    /// the value and anything may follow it (the caller judges that); errors name the body's byte
    /// positions, and the nesting limit counts the enclosing containers, as if the whole body were read.
    /// Returns the value and the index in `bytes` just past it.
    public static func readValue(_ bytes: [UInt8], at offset: Int, depth: Int) throws(FormatError) -> (value: JSONValue, end: Int) {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw FormatError("the body is not valid UTF-8") }
        var reader = JSONReader(bytes: bytes, index: 0)
        reader.offset = offset
        reader.depth = depth
        let value = try reader.value()
        return (value, reader.index)
    }

    private init(bytes: [UInt8], index: Int) {
        self.bytes = bytes
        self.index = index
    }

    private mutating func value() throws(FormatError) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected character '\(Self.show(byte))'")
        }
    }

    /// Counts open containers so a hostile `[[[[…` cannot exhaust the stack.
    private mutating func enter() throws(FormatError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
    }

    private mutating func object() throws(FormatError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let keyStart = index
            let key = try string()
            skipWhitespace()
            try expect(":")
            let member = try value()
            guard members.updateValue(member, forKey: key) == nil else {
                index = keyStart
                throw failure("duplicate key \"\(ByteText.excerpt(key))\"")
            }
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect("}")
            return .object(members)
        }
    }

    private mutating func array() throws(FormatError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            elements.append(try value())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect("]")
            return .array(elements)
        }
    }

    private mutating func string() throws(FormatError) -> String {
        index += 1
        var result = ""
        var runStart = index
        while true {
            guard let byte = peek() else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                result += String(decoding: bytes[runStart..<index], as: UTF8.self)
                index += 1
                return result
            case UInt8(ascii: "\\"):
                result += String(decoding: bytes[runStart..<index], as: UTF8.self)
                index += 1
                result.unicodeScalars.append(try escape())
                runStart = index
            case 0..<0x20:
                throw failure("control character in a string")
            default:
                index += 1
            }
        }
    }

    /// One escape after the backslash, a `\uD83D\uDE00` surrogate pair read as one scalar.
    private mutating func escape() throws(FormatError) -> Unicode.Scalar {
        guard let byte = peek() else { throw failure("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex4()
            if (0xDC00...0xDFFF).contains(unit) { throw failure("lone low surrogate \\u\(String(unit, radix: 16))") }
            guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit)! }
            guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                throw failure("high surrogate without its low half")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("high surrogate without its low half") }
            return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))!
        default:
            throw failure("invalid escape '\\\(Self.show(byte))'")
        }
    }

    private mutating func hex4() throws(FormatError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexValue(byte) else { throw failure("invalid \\u escape") }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as written.
    private mutating func number() throws(FormatError) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw failure("a number needs digits") }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("a number needs digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        // As Foundation's JSONSerialization does: a number past Double's range is no number a reader can hold.
        guard Double(literal)?.isFinite == true else { throw failure("the number \(literal.prefix(40)) is out of range") }
        return literal
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String) throws(FormatError) {
        guard bytes[index...].starts(with: word.utf8) else { throw failure("invalid literal") }
        index += word.utf8.count
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(FormatError) {
        guard peek() == UInt8(ascii: character) else {
            throw failure(peek() == nil ? "unexpected end of input" : "expected '\(character)'")
        }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), ByteText.isWhitespace(byte) { index += 1 }
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.endIndex ? bytes[index + offset] : nil
    }

    private func failure(_ message: String) -> FormatError {
        FormatError("byte \(offset + index): \(message)")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
