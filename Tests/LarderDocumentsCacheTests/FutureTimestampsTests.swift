import Foundation
import LarderConfig
import LarderDocuments
import LarderFreshness
import LarderHTTP
import LarderTesting
import Testing

/// SPEC §4.11: an index or a document dated years ahead is kept as data, but drives no header, no
/// freshness decision and no never-regress refusal past now.
@Suite("Documents dated in the future")
struct FutureTimestampsTests {
    static let year9999 = "9999-12-31T00:00:00Z"

    /// `Last-Modified` of `response`, never later than its `Date` (RFC 9110 §8.8.2.1).
    static func expectNotAfterDate(_ response: TestResponse, _ what: String) {
        let date = response.header("Date").flatMap(HTTPDate.parse)
        let modified = response.header("Last-Modified").flatMap(HTTPDate.parse)
        #expect(date != nil && modified != nil, "\(what): both headers")
        if let date, let modified { #expect(modified <= date, "\(what): Last-Modified \(modified) after Date \(date)") }
    }

    @Test func aFarFutureDocumentAndIndexDriveNoHeaderAndNoRegression() async throws {
        var poisoned = TestDocument("a.txt", "version one")
        poisoned.updatedAt = Self.year9999
        poisoned.createdAt = Self.year9999
        let index = DocumentsFeed.index([poisoned]).replacingOccurrences(
            of: "\"generated_at\":\"2026-11-20T12:00:00Z\"", with: "\"generated_at\":\"\(Self.year9999)\"")
        // On the machine's own time: `Date` is libmicrohttpd's, from the real clock.
        try await withLarder(clock: ManualClock(now: Date())) { configuration, upstream in
            try await upstream.publish([poisoned], index: index)
            configuration.documents = .init(url: upstream.url(DocumentsFeed.indexPath), format: .auto)
        } _: { larder, upstream in
            let document = try await larder.get("/documents/a.txt")
            #expect(document.text == "version one")
            Self.expectNotAfterDate(document, "the document")
            let listing = try await larder.get("/documents")
            Self.expectNotAfterDate(listing, "the listing")
            // Kept as data: the listing says what the upstream said.
            #expect(listing.json?["generated_at"] as? String == Self.year9999)

            // The corrected index, generated before 9999, is no regression and its document replaces the copy.
            var corrected = TestDocument("a.txt", "version two")
            corrected.updatedAt = "2026-11-02T10:00:00Z"
            try await upstream.publish([corrected])
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 200, "\(refresh.text)")
            #expect(refresh.json?["updated"] as? Int == 1, "\(refresh.text)")
            let replaced = try await larder.get("/documents/a.txt")
            #expect(replaced.text == "version two")
            Self.expectNotAfterDate(replaced, "the replaced document")
            let metrics = try await larder.get("/metrics")
            #expect(metrics.text.contains(#"larder_upstream_regressions_refused_total{resource="documents"} 0"#))
        }
    }

    /// Mirrored by a clock a year ahead, then served after it went back to the machine's time: the
    /// mirror is kept (start-up rewrites none of its instants), and no `Last-Modified` is after `Date`.
    @Test func aClockThatWentBackKeepsTheMirrorAndDatesNoHeaderAfterNow() async throws {
        let year: TimeInterval = 365 * 86_400
        var document = TestDocument("a.txt", "version one")
        // In the past for the clock ahead, in the future once it went back.
        document.updatedAt = ISO8601DateFormatter().string(from: Date() + year / 2)
        try await withLarder(clock: ManualClock(now: Date() + year)) { configuration, upstream in
            try await upstream.publish([document])
            configuration.documents = .init(url: upstream.url(DocumentsFeed.indexPath), format: .auto)
        } _: { larder, upstream in
            #expect(try await larder.get("/documents/a.txt").text == "version one")
            try await upstream.fault(#"{"path":"\#(DocumentsFeed.indexPath)","status":503}"#)
            larder.clock.advance(by: Date().timeIntervalSince(larder.clock.now))
            try await larder.restart()
            let served = try await larder.get("/documents/a.txt")
            #expect(served.text == "version one")
            Self.expectNotAfterDate(served, "the document")
            let listing = try await larder.get("/documents")
            #expect((listing.json?["documents"] as? [Any])?.count == 1)
            Self.expectNotAfterDate(listing, "the listing")
        }
    }
}
