import LarderHTTP
import Testing

@Suite("HTTP dates and conditional requests")
struct HTTPUtilityTests {
    @Test func formatsAndParsesAllThreeDateForms() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("yesterday") == nil)
        #expect(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT") == nil)
    }

    @Test func ifNoneMatchWinsOverIfModifiedSince() {
        let etag = "\"abc\""
        let modified = 784_111_777
        #expect(ConditionalRequest.isNotModified(["If-None-Match": "\"abc\""], etag: etag, lastModified: modified))
        #expect(ConditionalRequest.isNotModified(["If-None-Match": "\"x\", W/\"abc\""], etag: etag, lastModified: modified))
        #expect(ConditionalRequest.isNotModified(["If-None-Match": "*"], etag: etag, lastModified: modified))
        // A non-matching tag means modified, whatever the date says.
        #expect(!ConditionalRequest.isNotModified(
            ["If-None-Match": "\"old\"", "If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"],
            etag: etag, lastModified: modified))
        #expect(ConditionalRequest.isNotModified(["If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"], etag: etag, lastModified: modified))
        #expect(!ConditionalRequest.isNotModified(["If-Modified-Since": "Sun, 06 Nov 1994 08:49:36 GMT"], etag: etag, lastModified: modified))
        #expect(!ConditionalRequest.isNotModified(["If-Modified-Since": "garbage"], etag: etag, lastModified: modified))
    }
}
