@testable import LarderHTTP
import Testing

/// What `make fuzz` found in the HTTP helpers, one test per input class.
@Suite("Fuzz findings: HTTP")
struct HTTPFuzzFindingsTests {
    @Test("a token starting with a combining mark is found after the space", arguments: [
        "\u{06D9}\u{0349}c", "\u{0301}token", "\u{200D}x",
    ])
    func tokenStartingWithCombiningMark(_ token: String) {
        var headers = HTTPHeaders()
        headers.add("Authorization", "Bearer " + token)
        let request = Request(method: .post, rawPath: "/rates/refresh", segments: ["rates", "refresh"], headers: headers)
        #expect(BearerToken(token).refusal(for: request) == nil)
        #expect(BearerToken(token + "x").refusal(for: request)?.status == .unauthorized)
    }

    @Test("a prepend mark before a comma does not swallow the ETag after it")
    func prependMarkBeforeAComma() {
        #expect(ConditionalRequest.matches("\"x\u{0602}\", \"abc\"", etag: "\"abc\""))
        #expect(ConditionalRequest.matches("\"x\u{0602}\",W/\"abc\"", etag: "\"abc\""))
        #expect(ConditionalRequest.isNotModified(["If-None-Match": "\"\u{0600}\",\t\"abc\" "], etag: "\"abc\"", lastModified: nil))
        #expect(!ConditionalRequest.matches("\"x\u{0602}\",\"abd\"", etag: "\"abc\""))
    }

    @Test("a day the month does not have is no HTTP date", arguments: [
        "Sund~GGGGGGGGGGGy, 31-Nov-94 08:49:37 GMT", "Mon, 31 Nov 1994 08:49:37 GMT", "Thu, 29 Feb 2001 00:00:00 GMT",
        "Fri Feb 30 00:00:00 2024", "Tue, 31 Apr 2026 12:00:00 GMT",
    ])
    func dayPastTheEndOfTheMonth(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func leapDaysAndYearsBefore1000StillReadAndWriteBack() throws {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == 1_709_164_800)
        let early = try #require(HTTPDate.parse("Mon, 01 Jan 0001 00:00:00 GMT"))
        #expect(HTTPDate.format(secondsSince1970: early) == "Mon, 01 Jan 0001 00:00:00 GMT")
    }
}
