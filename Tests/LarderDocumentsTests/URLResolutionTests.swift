import Foundation
import LarderDocuments
import Testing

@Suite("Document URLs resolve against the index URL as RFC 3986 §5 says")
struct URLResolutionTests {
    /// (url as written, or nil for none; the resolved URL) against https://up.example.com/docs/v1/index.json.
    static let resolved: [(String?, String)] = [
        (nil, "https://up.example.com/docs/v1/a.txt"),
        ("a.txt", "https://up.example.com/docs/v1/a.txt"),
        ("./a.txt", "https://up.example.com/docs/v1/a.txt"),
        ("/documents/a.txt", "https://up.example.com/documents/a.txt"),
        ("../x/a.txt", "https://up.example.com/docs/x/a.txt"),
        ("../../../../a.txt", "https://up.example.com/a.txt"),
        ("//host/a.txt", "https://host/a.txt"),
        ("//mirror.example.org:8443/a.txt", "https://mirror.example.org:8443/a.txt"),
        ("a.txt?v=2#top", "https://up.example.com/docs/v1/a.txt?v=2#top"),
        ("files/a%20b.txt", "https://up.example.com/docs/v1/files/a%20b.txt"),
        ("https://cdn.example.net/f/a.txt", "https://cdn.example.net/f/a.txt"),
        ("http://cdn.example.net/a/../b/./a.txt", "http://cdn.example.net/b/a.txt"),
        // Scheme and host in lowercase (RFC 3986 §6.2.2.1), found by make fuzz: the listed URL resolves to itself.
        ("HTTPS://CDN.example.net/a.txt", "https://cdn.example.net/a.txt"),
        ("http://[::1]:8080/a.txt", "http://[::1]:8080/a.txt"),
    ]

    @Test("each reference resolves to the RFC 3986 target, in both formats",
          arguments: IndexFormat.allCases, resolved)
    func resolves(format: IndexFormat, case: (url: String?, expected: String)) throws {
        let fields: Fields = `case`.url.map { ["name": "a.txt", "url": $0] } ?? ["name": "a.txt"]
        let index = try parse(indexBody(format, [fields]))
        #expect(index.documents.first?.url.absoluteString == `case`.expected)
    }

    @Test("the merge uses the index URL's folder: with and without a trailing slash", arguments: [
        ("http://127.0.0.1:8080/documents", "http://127.0.0.1:8080/a.txt"),
        ("http://127.0.0.1:8080/documents/", "http://127.0.0.1:8080/documents/a.txt"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/a.txt"),
    ])
    func baseFolder(base: String, expected: String) throws {
        let index = try parse(indexBody(.json, [["name": "a.txt"]]), base: URL(string: base)!)
        #expect(index.documents.first?.url.absoluteString == expected)
    }

    @Test("a resolved URL that is not http(s) with a host is refused, in both formats",
          arguments: IndexFormat.allCases, [
              ("file:///etc/passwd", "not http or https"),
              ("ftp://files.example.com/a.txt", "not http or https"),
              ("javascript:alert(1)", "not http or https"),
              ("data:text/plain,hello", "not http or https"),
              ("mailto:ops@example.com", "not http or https"),
              ("http:a.txt", "without a host"),
              ("https:///a.txt", "without a host"),
              ("", "url is empty"),
              ("a b.txt", "not an RFC 3986 reference"),
              ("ä.txt", "not an RFC 3986 reference"),
              ("a\\b.txt", "not an RFC 3986 reference"),
              ("a.txt%zz", "not an RFC 3986 reference"),
              ("a.txt%2", "not an RFC 3986 reference"),
              ("<a.txt>", "not an RFC 3986 reference"),
          ])
    func refused(format: IndexFormat, case: (url: String, reason: String)) throws {
        let message = try #require(refusal(format, [["name": "a.txt", "url": `case`.url]]))
        #expect(message.hasPrefix("index: document 1 ('a.txt'): url"))
        #expect(message.contains(`case`.reason))
    }

    @Test("names resolve against an index that is itself not http(s) only to be refused")
    func fileIndex() throws {
        #expect(throws: DocumentIndexError.self) {
            try parse(indexBody(.json, [["name": "passwd"]]), base: URL(filePath: "/etc/index.json"))
        }
    }
}
