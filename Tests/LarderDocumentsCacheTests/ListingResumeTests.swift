import LarderTesting
import Testing

/// Resuming a download of `GET /documents` (a lean route) with `If-Range` (RFC 9110 §13.1.5).
@Suite("Documents: the listing resumed with If-Range", .serialized)
struct ListingResumeTests {
    static let documents = (1...3).map { TestDocument("doc-\($0).txt", "document number \($0)\n") }

    @Test func aStaleIfRangeAfterASyncGetsTheWholeNewListing() async throws {
        try await withDocuments(Self.documents) { larder, upstream in
            #expect(try await larder.waitForSync())
            let old = try await larder.get("/documents")
            let oldTag = try #require(old.header("ETag"))
            let oldDate = try #require(old.header("Last-Modified"))
            let resumed = try await larder.get("/documents", headers: [("Range", "bytes=0-20"), ("If-Range", oldTag)])
            #expect(resumed.status == 206 && resumed.body == Array(old.body.prefix(21)), "the same listing: the slice")

            var changed = Self.documents
            changed.append(TestDocument("doc-4.txt", "a fourth document\n"))
            changed[3].updatedAt = "2026-11-03T10:00:00Z"
            try await upstream.publish(changed)
            larder.clock.advance(by: 60)                          // a later second: a later Last-Modified too
            #expect(try await larder.post("/documents/refresh").status == 200)
            let new = try await larder.get("/documents")
            #expect(new.header("ETag") != oldTag && new.body != old.body)

            for validator in [oldTag, oldDate, "W/" + (new.header("ETag") ?? "")] {
                let stale = try await larder.get("/documents", headers: [("Range", "bytes=0-20"), ("If-Range", validator)])
                #expect(stale.status == 200, "If-Range \(validator): not the listing the client has")
                #expect(stale.text == new.text, "the whole new listing, not a slice to stitch onto the old one")
                #expect(stale.header("Content-Range") == nil)
            }
            let current = try await larder.get(
                "/documents", headers: [("Range", "bytes=0-20"), ("If-Range", try #require(new.header("ETag")))])
            #expect(current.status == 206 && current.body == Array(new.body.prefix(21)))
        }
    }
}
