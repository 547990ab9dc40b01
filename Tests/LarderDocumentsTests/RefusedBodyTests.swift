import LarderDocuments
import Testing

@Suite("Index bodies refused before any entry is read")
struct RefusedBodyTests {
    @Test("an unknown or missing XML version is refused", arguments: [
        ("2", "index: version '2' is not supported (only 1)"),
        ("01", "index: version '01' is not supported (only 1)"),
        ("1.0", "index: version '1.0' is not supported (only 1)"),
        (" 1", "index: version ' 1' is not supported (only 1)"),
        ("", "index: version '' is not supported (only 1)"),
    ])
    func xmlVersion(version: String, expected: String) {
        #expect(refusal(indexBody(.xml, [["name": "a.txt"]], version: version)) == expected)
    }

    @Test("an unknown or missing JSON version is refused", arguments: [
        ("2", "index: version '2' is not supported (only 1)"),
        ("1.0", "index: version '1.0' is not supported (only 1)"),
        ("1e0", "index: version '1e0' is not supported (only 1)"),
        ("-1", "index: version '-1' is not supported (only 1)"),
        (#""1""#, "index: version is a string, not a number"),
        ("true", "index: version is a boolean, not a number"),
        ("null", "index: version is missing"),
    ])
    func jsonVersion(version: String, expected: String) {
        #expect(refusal(indexBody(.json, [["name": "a.txt"]], version: version)) == expected)
    }

    @Test("a missing version is refused", arguments: IndexFormat.allCases)
    func missingVersion(format: IndexFormat) {
        #expect(refusal(indexBody(format, [["name": "a.txt"]], version: nil)) == "index: version is missing")
    }

    @Test("the version is judged before the entries, so a version-2 index fails on its version",
          arguments: IndexFormat.allCases)
    func versionFirst(format: IndexFormat) {
        let body = indexBody(format, [["name": "../a", "title": "new in v2"]], version: "2")
        #expect(refusal(body) == "index: version '2' is not supported (only 1)")
    }

    @Test("a bad generated_at is refused", arguments: IndexFormat.allCases,
          ["2026-13-01T00:00:00Z", "yesterday", "2026-05-01T12:00:00"])
    func generatedAt(format: IndexFormat, text: String) {
        let message = refusal(indexBody(format, [], generatedAt: text))
        #expect(message == "index: generated_at '\(text)' is not an RFC 3339 timestamp")
    }

    @Test("bodies that are neither XML nor JSON are refused by auto detection", arguments: [
        ("", "index: empty body"),
        (" \n\t", "index: empty body"),
        ("\u{FEFF}", "index: empty body"),
        ("a.txt\nb.txt\n", "index: the body is neither XML nor JSON (it starts with 'a.txt\\u{A}b.txt\\u{A}')"),
        ("[{\"name\":\"a.txt\"}]", "index: the body is neither XML nor JSON (it starts with '[{\"name\":\"a.txt\"}]')"),
    ])
    func undetectable(body: String, expected: String) {
        #expect(refusal(body) == expected)
    }

    @Test("an explicit format reads the body as that format and nothing else")
    func explicitFormat() throws {
        let message = try #require(refusal("<documents version=\"1\"/>", format: .json))
        #expect(message.hasPrefix("index: json: "))
        let html = try #require(refusal("<!DOCTYPE html><html></html>", format: .json))
        #expect(html.hasPrefix("index: json: "))
        let json = try #require(refusal("{\"version\":1,\"documents\":[]}", format: .xml))
        #expect(json == "index: xml: the body is not XML (it does not start with '<')")
    }

    @Test("a body over the cap is refused at the first byte past it", arguments: [0, 1, 100])
    func overCap(cap: Int) throws {
        // An index still open when the cap is reached: nothing within the cap is wrong yet.
        let body = Array(("{" + String(repeating: " ", count: cap + 100)).utf8)
        #expect(refusal(body, maxBytes: cap) == "index: the body is over the limit of \(cap) bytes")
    }

    @Test("what is wrong within the cap is found first, however the body is cut")
    func faultBeforeCap() {
        let body = Array(String(repeating: "x", count: 101).utf8)
        #expect(refusal(body, maxBytes: 100) == "index: the body is neither XML nor JSON (it starts with 'xxxxxxxxxxxxxxxxxxxx')")
    }
}
