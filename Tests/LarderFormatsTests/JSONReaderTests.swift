import LarderFormats
import Testing

@Suite("Strict JSON reader")
struct JSONReaderTests {
    private func read(_ text: String) throws(FormatError) -> JSONValue {
        try JSONReader.read(Array(text.utf8))
    }

    private func failure(_ text: String) -> String? {
        failure(Array(text.utf8))
    }

    private func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONReader.read(bytes)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("values of every kind, nested, with number literals kept as written")
    func values() throws {
        let value = try read(#" {"a":[1.0862000,-0,1e-5,2E+10,0.5],"b":{"c":true,"d":false,"e":null},"f":"x"} "#)
        #expect(value == .object([
            "a": .array([.number("1.0862000"), .number("-0"), .number("1e-5"), .number("2E+10"), .number("0.5")]),
            "b": .object(["c": .bool(true), "d": .bool(false), "e": .null]),
            "f": .string("x"),
        ]))
    }

    @Test("a number never passes through Double: 30 significant digits survive")
    func longNumber() throws {
        #expect(try read("123456789012345678901234567.890") == .number("123456789012345678901234567.890"))
    }

    @Test("string escapes, including a surrogate pair, decode to their scalars")
    func escapes() throws {
        #expect(try read(#""\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00é""#) == .string("\"\\/\u{08}\u{0C}\n\r\té😀é"))
    }

    @Test("a leading UTF-8 byte order mark is skipped")
    func byteOrderMark() throws {
        #expect(try JSONReader.read(ByteText.byteOrderMark + Array("[]".utf8)) == .array([]))
    }

    /// (document, expected message): each names the byte where reading stopped.
    static let malformedCases: [(String, String)] = [
        ("", "byte 0: unexpected end of input"),
        ("   ", "byte 3: unexpected end of input"),
        (#"{"a":1,"a":2}"#, #"byte 7: duplicate key "a""#),
        (#"{"a":1}x"#, "byte 7: unexpected content after the JSON value"),
        ("[1,]", "byte 3: unexpected character ']'"),
        ("[1 2]", "byte 3: expected ']'"),
        (#"{"a" 1}"#, "byte 5: expected ':'"),
        ("{a:1}", "byte 1: expected a string key"),
        ("01", "byte 1: unexpected content after the JSON value"),
        ("1.", "byte 2: a number needs digits after '.'"),
        (".5", "byte 0: unexpected character '.'"),
        ("+1", "byte 0: unexpected character '+'"),
        ("-", "byte 1: a number needs digits"),
        ("1e", "byte 2: a number needs digits in its exponent"),
        ("tru", "byte 0: invalid literal"),
        ("NaN", "byte 0: unexpected character 'N'"),
        ("'a'", "byte 0: unexpected character '''"),
        ("\"abc", "byte 4: unterminated string"),
        ("\"a\tb\"", "byte 2: control character in a string"),
        (#""\x""#, "byte 3: invalid escape '\\x'"),
        (#""\u12""#, #"byte 5: invalid \u escape"#),
        (#""\udc00""#, "byte 7: lone low surrogate \\udc00"),
        (#""\ud83d""#, "byte 7: high surrogate without its low half"),
        (#""\ud83d\u0041""#, "byte 13: high surrogate without its low half"),
    ]

    @Test("malformed documents are refused with the offending byte", arguments: malformedCases)
    func malformed(text: String, expected: String) {
        #expect(failure(text) == expected)
    }

    @Test("invalid UTF-8 anywhere is refused before reading", arguments: [
        [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xFF, 0x22], [0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D],
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        #expect(failure(bytes) == "the body is not valid UTF-8")
    }

    @Test("nesting is capped at maxDepth levels")
    func depth() throws {
        let deepest = String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)
        #expect(throws: Never.self) { try read(deepest) }
        let tooDeep = "[" + deepest + "]"
        #expect(failure(tooDeep) == "byte \(JSONReader.maxDepth): nesting deeper than \(JSONReader.maxDepth) levels")
        let hostile = String(repeating: #"{"a":"#, count: 100_000)
        #expect(failure(hostile)?.contains("nesting deeper") == true)
    }

    @Test("a value cut from a larger body reads as it would there: positions, nesting and what follows it")
    func valueCutFromABody() throws {
        let (value, end) = try JSONReader.readValue(Array(#"{"a":[1]} ,"#.utf8), at: 40, depth: 2)
        #expect(value == .object(["a": .array([.number("1")])]))
        #expect(end == 9, "what follows the value is the caller's to judge")
        #expect(try JSONReader.readValue(Array("12x".utf8), at: 0, depth: 0).end == 2)
        #expect(throws: FormatError("byte 47: unterminated string")) { try JSONReader.readValue(Array(#"{"a":"x"#.utf8), at: 40, depth: 0) }
        let nested = Array((String(repeating: "[", count: JSONReader.maxDepth - 1) + "[").utf8)
        #expect(throws: FormatError("byte \(10 + JSONReader.maxDepth - 2): nesting deeper than \(JSONReader.maxDepth) levels")) {
            try JSONReader.readValue(nested, at: 10, depth: 2)
        }
        // Only a whole body may start with a BOM.
        #expect(throws: FormatError("byte 0: unexpected character '0xEF'")) { try JSONReader.readValue([0xEF, 0xBB, 0xBF, 0x31], at: 0, depth: 0) }
        #expect(throws: FormatError("the body is not valid UTF-8")) { try JSONReader.readValue([0x22, 0xFF, 0x22], at: 0, depth: 0) }
    }

    @Test("kind names the value for error messages")
    func kinds() {
        #expect([JSONValue.object([:]), .array([]), .string(""), .number("1"), .bool(true), .null].map(\.kind)
            == ["an object", "an array", "a string", "a number", "a boolean", "null"])
    }
}
