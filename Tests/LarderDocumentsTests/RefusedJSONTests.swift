import LarderDocuments
import LarderTesting
import Testing

@Suite("JSON indexes that are refused whole")
struct RefusedJSONTests {
    @Test("bodies that are not a JSON index object", arguments: [
        (#"{"version":1,"documents":[{"name":"a.txt"}"#, "index: json: byte 42: unexpected end of input"),
        (#"{"version":1,"documents":[{"name":"a.txt"}]} {}"#, "index: json: byte 45: unexpected content after the JSON value"),
        (#"{"version":1,"documents":[{"name":"a.txt"},]}"#, "index: json: byte 43: unexpected character ']'"),
        (#"{"version":1,"version":1,"documents":[]}"#, #"index: json: byte 13: duplicate key "version""#),
        (#"{"version":1}"#, "index: documents is missing"),
        (#"{"version":1,"documents":null}"#, "index: documents is null, not an array"),
        (#"{"version":1,"documents":{"a.txt":{}}}"#, "index: documents is an object, not an array"),
        (#"{"version":1,"documents":[],"title":"x"}"#, "index: unknown field 'title'"),
        (#"{"version":1,"generated_at":12,"documents":[]}"#, "index: generated_at is a number, not a string"),
        (#"{"version":1,"generated_at":"2026-05-01","documents":[]}"#, "index: generated_at '2026-05-01' is not an RFC 3339 timestamp"),
    ])
    func notAnIndex(body: String, expected: String) {
        #expect(refusal(body) == expected)
    }

    @Test("a bare JSON value is not an index", arguments: [#""index""#, "[]", "1", "null"])
    func bareValue(body: String) throws {
        let message = try #require(refusal(body, format: .json))
        #expect(message.hasPrefix("index: json: the index is "))
        #expect(message.hasSuffix(", not an object"))
        // Auto detection refuses these outright: only '<' and '{' start an index.
        #expect(refusal(body)?.hasPrefix("index: the body is neither XML nor JSON") == true)
    }

    /// (body, part of the expected message): bytes only a byte-level reader can judge.
    static let strictCases: [([UInt8], String)] = {
        let invalidUTF8: [UInt8] = Array(#"{"version":1,"documents":[{"name":"a"#.utf8) + [0xC3, 0x28] + Array(#""}]}"#.utf8)
        let deep = #"{"version":1,"documents":[{"name":"a.txt","url":"# + String(repeating: "[", count: 40)
        return [(invalidUTF8, "not valid UTF-8"), (Array(deep.utf8), "nesting deeper")]
    }()

    @Test("invalid UTF-8 and deep nesting are refused by the strict reader", arguments: strictCases)
    func strictReader(body: [UInt8], expected: String) throws {
        let message = try #require(refusal(body))
        #expect(message.contains(expected))
    }

    @Test("too many documents are refused when the one past the limit starts, before it is read")
    func tooMany() async throws {
        // Entries are judged as they arrive, so the first 100,000 must be valid to reach the limit;
        // the one past it is refused whatever it holds. Seconds of CPU: off the cooperative pool.
        let refused = try await onThread {
            let entries = (0..<100_000).map { #"{"name":"d\#($0)"}"# } + ["[not even an entry"]
            return refusal(#"{"version":1,"documents":["# + entries.joined(separator: ",") + "]}")
        }
        #expect(refused == "index: more than 100000 documents")
    }
}
