@testable import LarderHTTP
import Testing

/// A request path split into decoded segments: every shape a route sees, and every one refused.
@Suite("Request paths: segments decoded strictly, once")
struct PathSegmentsTests {
    @Test(arguments: [
        ("/", []), ("/rates", ["rates"]), ("/a/b%2Fc", ["a", "b/c"]), ("//", ["", ""]), ("/a/", ["a", ""]),
        ("/2025-11-20..2026-11-20", ["2025-11-20..2026-11-20"]), ("/caf%C3%A9/x", ["café", "x"]),
        ("/café", ["café"]), ("/a+b", ["a+b"]), ("/%41%2b", ["A+"]),
    ] as [(String, [String])])
    func decodes(path: String, segments: [String]) {
        #expect(RequestReader.decodeSegments(path) == segments)
    }

    @Test(arguments: ["", "rates", "/%", "/%4", "/%zz", "/a/%00", "/%1F", "/%7F", "/%C3", "/ok/%FF%FE"])
    func refuses(path: String) {
        #expect(RequestReader.decodeSegments(path) == nil)
    }
}
