import LarderServing
import Testing

@Suite("ContentTypePolicy: only passive types are served as declared")
struct ContentTypePolicyTests {
    static let octet = "application/octet-stream"

    /// A declared type shown escaped, so a CR or LF in a case does not break the test log.
    struct Declared: Sendable, ExpressibleByStringLiteral, CustomTestStringConvertible {
        let text: String?
        init(stringLiteral value: String) { text = value }
        init(_ text: String?) { self.text = text }
        var testDescription: String { text.map { $0.debugDescription } ?? "nil" }
    }

    static let kept: [(String?, String)] = [
        ("text/plain", "text/plain"),
        ("TEXT/Plain", "text/plain"),
        (" text/plain ", "text/plain"),
        ("text/plain;", "text/plain"),
        ("text/plain; charset=utf-8", "text/plain; charset=utf-8"),
        ("text/plain;charset=UTF-8", "text/plain; charset=utf-8"),
        ("text/plain ; CHARSET=utf-8", "text/plain; charset=utf-8"),
        ("text/plain; charset=\"utf-8\"", "text/plain; charset=utf-8"),
        ("text/plain;; charset=utf-8;", "text/plain; charset=utf-8"),
        ("text/markdown; charset=utf-8; variant=GFM", "text/markdown; charset=utf-8"),
        ("text/markdown; variant=\"a;b\"; charset=utf-8", "text/markdown; charset=utf-8"),
        ("text/csv; header=present", "text/csv"),
        ("text/xml; charset=iso-8859-1", "text/xml; charset=iso-8859-1"),
        ("application/json", "application/json"),
        ("application/json; charset=utf-8", "application/json"),
        ("application/xml", "application/xml"),
        ("application/pdf", "application/pdf"),
        ("image/png", "image/png"),
        ("image/jpeg", "image/jpeg"),
        ("image/gif", "image/gif"),
        ("image/webp", "image/webp"),
        ("application/zip", "application/zip"),
        ("application/gzip", "application/gzip"),
        ("application/octet-stream", octet),
    ]

    static let refused: [Declared] = [
        Declared(nil), "", "   ",
        // Types a browser runs script in.
        "text/html", "TEXT/HTML", "text/html; charset=utf-8", "image/svg+xml", "application/javascript",
        "text/javascript", "application/xhtml+xml", "application/ecmascript", "multipart/x-mixed-replace",
        "application/x-shockwave-flash", "text/xsl",
        // Not on the list.
        "application/ld+json", "image/bmp", "video/mp4", "application/x-gzip",
        // Malformed.
        "text", "text/", "/plain", "text/plain/extra", "text /plain", "text/ plain", "text/plain text",
        "text/plain; charset", "text/plain; charset=", "text/plain; charset = utf-8", "text/plain; charset=\"utf-8",
        "text/plain; =utf-8", "text/plain, text/html", "text/plain\r\nX-Evil: 1",
        "text/plain; charset=utf-8\r\nSet-Cookie: a=b", "tëxt/plain", "text/plain; charset=\"a\\\u{01}\"",
    ]

    static let charsetDropped: [(String, String)] = [
        ("text/plain; charset=\"utf 8\"", "text/plain"),
        ("text/plain; charset=\"\"", "text/plain"),
        ("text/plain; charset=" + String(repeating: "a", count: 41), "text/plain"),
        ("text/plain; charset=utf-8; charset=latin1", "text/plain"),
        ("image/png; charset=utf-8", "image/png"),
    ]

    @Test(arguments: kept)
    func allowedTypesAreServedNormalized(_ declared: String?, _ served: String) {
        #expect(ContentTypePolicy.served(declared) == served)
    }

    @Test(arguments: refused)
    func everythingElseIsOctetStream(_ declared: Declared) {
        #expect(ContentTypePolicy.served(declared.text) == Self.octet)
    }

    @Test(arguments: charsetDropped)
    func aDoubtfulCharsetIsDropped(_ declared: String, _ served: String) {
        #expect(ContentTypePolicy.served(declared) == served)
    }

    @Test func xmlTypesNeedTheSandbox() {
        #expect(ContentTypePolicy.needsSandbox("application/xml"))
        #expect(ContentTypePolicy.needsSandbox("text/xml; charset=utf-8"))
        #expect(!ContentTypePolicy.needsSandbox("text/plain"))
        #expect(!ContentTypePolicy.needsSandbox("application/pdf"))
        for type in ContentTypePolicy.allowed {
            #expect(ContentTypePolicy.served(type) == type, "\(type) round-trips")
        }
    }
}
