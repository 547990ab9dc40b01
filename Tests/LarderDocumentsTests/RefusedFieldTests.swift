import LarderDocuments
import Testing

@Suite("Index entries with a bad field value refuse the whole index")
struct RefusedFieldTests {
    /// (field, value as written, expected message after "index: document 1 ('a.txt'): ").
    static let badValues: [(String, String, String)] = [
        ("sha256", String(repeating: "a", count: 63), "sha256 is not 64 hex digits"),
        ("sha256", String(repeating: "a", count: 65), "sha256 is not 64 hex digits"),
        ("sha256", String(repeating: "g", count: 64), "sha256 is not 64 hex digits"),
        ("sha256", " " + String(repeating: "a", count: 63), "sha256 is not 64 hex digits"),
        ("sha256", "", "sha256 is not 64 hex digits"),
        ("size", "-1", "size '-1' is not a whole number of bytes from 0 to 2^53"),
        ("size", "1.5", "size '1.5' is not a whole number of bytes from 0 to 2^53"),
        ("size", "1e3", "size '1e3' is not a whole number of bytes from 0 to 2^53"),
        ("size", "-0", "size '-0' is not a whole number of bytes from 0 to 2^53"),
        ("size", "9007199254740993", "size '9007199254740993' is not a whole number of bytes from 0 to 2^53"),
        ("size", "123456789012345678901234567890", "size '123456789012345678901234567890' is not a whole number of bytes from 0 to 2^53"),
        ("created_at", "2026-13-01T00:00:00Z", "created_at '2026-13-01T00:00:00Z' is not an RFC 3339 timestamp"),
        ("created_at", "yesterday", "created_at 'yesterday' is not an RFC 3339 timestamp"),
        ("updated_at", "2026-05-01T12:00:00", "updated_at '2026-05-01T12:00:00' is not an RFC 3339 timestamp"),
        ("updated_at", "2026-05-01 12:00:00Z", "updated_at '2026-05-01 12:00:00Z' is not an RFC 3339 timestamp"),
        ("updated_at", "2026-02-30T00:00:00Z", "updated_at '2026-02-30T00:00:00Z' is not an RFC 3339 timestamp"),
        ("updated_at", "", "updated_at '' is not an RFC 3339 timestamp"),
        ("content_type", "text", "content_type 'text' is not a media type (type/subtype; parameters)"),
        ("content_type", "text/", "content_type 'text/' is not a media type (type/subtype; parameters)"),
        ("content_type", "/plain", "content_type '/plain' is not a media type (type/subtype; parameters)"),
        ("content_type", "text/plain; charset", "content_type 'text/plain; charset' is not a media type (type/subtype; parameters)"),
        ("content_type", "text/plain; a=\"open", "content_type 'text/plain; a=\"open' is not a media type (type/subtype; parameters)"),
        ("content_type", "text/pläin", "content_type 'text/pläin' is not a media type (type/subtype; parameters)"),
        ("content_type", "text/plain, text/html", "content_type 'text/plain, text/html' is not a media type (type/subtype; parameters)"),
        ("content_type", "text/" + String(repeating: "x", count: 251), "content_type 'text/" + String(repeating: "x", count: 35) + "…' is not a media type (type/subtype; parameters)"),
        ("title", "A title", "unknown field 'title'"),
    ]

    @Test("a bad value is refused with the entry and field named, in both formats",
          arguments: IndexFormat.allCases, badValues)
    func badValue(format: IndexFormat, case: (field: String, value: String, problem: String)) {
        let body = indexBody(format, [["name": "ok.txt"], withField(`case`.field, `case`.value)])
        #expect(refusal(body) == "index: document 2 ('a.txt'): \(`case`.problem)")
    }

    @Test("media types that are well formed are kept as written", arguments: [
        "text/plain", "text/plain;charset=utf-8", "text/plain; charset=\"utf-8\"", "application/vnd.api+json",
        "text/plain;", "multipart/mixed; boundary=\"a b\\\"c\"", "text/plain\t;\tformat=flowed",
        "text/" + String(repeating: "x", count: 250),
    ])
    func goodMediaType(value: String) throws {
        let index = try parse(indexBody(.json, [withField("content_type", value)]))
        #expect(index.documents.first?.contentType == value)
    }

    @Test("JSON values of the wrong type are refused", arguments: [
        (#"{"name":"a.txt","size":"12"}"#, "index: document 1 ('a.txt'): size is a string, not a number"),
        (#"{"name":"a.txt","size":true}"#, "index: document 1 ('a.txt'): size is a boolean, not a number"),
        (#"{"name":"a.txt","sha256":1}"#, "index: document 1 ('a.txt'): sha256 is a number, not a string"),
        (#"{"name":"a.txt","url":["a"]}"#, "index: document 1 ('a.txt'): url is an array, not a string"),
        (#"{"name":7}"#, "index: document 1: name is a number, not a string"),
        (#"{"name":"a.txt","updated_at":1700000000}"#, "index: document 1 ('a.txt'): updated_at is a number, not a string"),
        (#""a.txt""#, "index: document 1: is a string, not an object"),
        (#"{"name":"a.txt","name":"b.txt"}"#, "index: json: byte 42: duplicate key \"name\""),
        (#"{"name":"a.txt","content_type":"text/plain\r\nX-Evil: 1"}"#,
         "index: document 1 ('a.txt'): content_type 'text/plain\\u{D}\\u{A}X-Evil: 1' is not a media type (type/subtype; parameters)"),
    ])
    func jsonTypes(entry: String, expected: String) {
        #expect(refusal(#"{"version":1,"documents":["# + entry + "]}") == expected)
    }

    private func withField(_ field: String, _ value: String) -> Fields {
        // KeyValuePairs has no mutation, so the two-field entry is spelled out.
        ["name": "a.txt", field: value]
    }
}
