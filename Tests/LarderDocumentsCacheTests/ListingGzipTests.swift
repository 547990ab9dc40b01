import LarderApp
@testable import LarderDocumentsCache
import LarderServing
import LarderTesting
import Testing

/// `GET /documents` over 1 KiB in both encodings, over loopback (the listing's lean route included).
@Suite("Documents: the listing gzipped when asked", .serialized)
struct ListingGzipTests {
    /// Twelve documents: a listing of about 2.7 KiB.
    static let documents = (1...12).map { TestDocument("doc-\($0).txt", "document number \($0)\n") }
    static let gzip = ("Accept-Encoding", "gzip, deflate, br")

    @Test func theGzipListingInflatesToTheIdentityOneWithItsOwnValidators() async throws {
        try await withDocuments(Self.documents) { larder, _ in
            #expect(try await larder.waitForSync())
            let identity = try await larder.get("/documents")
            let gzip = try await larder.get("/documents", headers: [Self.gzip])
            let identityTag = try #require(identity.header("ETag"))
            let gzipTag = try #require(gzip.header("ETag"))
            #expect(identity.body.count > 1024)
            #expect(identity.header("Content-Encoding") == nil)
            #expect(gzip.header("Content-Encoding") == "gzip")
            #expect(gunzip(gzip.body) == identity.body)
            #expect(gzip.body.count < identity.body.count / 2)
            #expect(gzipTag == String(identityTag.dropLast()) + "-gzip\"")
            for answer in [identity, gzip] {
                #expect(answer.values("Vary") == ["Accept-Encoding"])
                #expect(answer.header("Content-Type") == "application/json")
                #expect(answer.header("Cache-Status")?.hasPrefix("Larder; hit") == true)
            }
            let (gzip304, identity304, crossed) = try await (
                larder.get("/documents", headers: [Self.gzip, ("If-None-Match", gzipTag)]),
                larder.get("/documents", headers: [("If-None-Match", identityTag)]),
                larder.get("/documents", headers: [Self.gzip, ("If-None-Match", identityTag)])
            )
            #expect(gzip304.status == 304 && gzip304.body.isEmpty && gzip304.header("ETag") == gzipTag)
            #expect(identity304.status == 304 && identity304.header("ETag") == identityTag)
            for answer in [gzip304, identity304] {
                #expect(answer.values("Vary") == ["Accept-Encoding"])
                #expect(answer.header("Content-Encoding") == nil)
            }
            #expect(crossed.status == 200 && crossed.body == gzip.body, "the identity ETag is not the gzip one's")
        }
    }

    @Test func headRangeAndRefusalsAnswerAsBefore() async throws {
        try await withDocuments(Self.documents) { larder, _ in
            #expect(try await larder.waitForSync())
            let identity = try await larder.get("/documents")
            let gzip = try await larder.get("/documents", headers: [Self.gzip])
            let (head, identityHead, range, refused, unlisted) = try await (
                larder.request("HEAD", "/documents", headers: [Self.gzip]),
                larder.request("HEAD", "/documents"),
                larder.get("/documents", headers: [Self.gzip, ("Range", "bytes=0-99")]),
                larder.get("/documents", headers: [("Accept-Encoding", "gzip;q=0, deflate")]),
                larder.get("/documents", headers: [("Accept-Encoding", "identity")])
            )
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("Content-Length") == String(gzip.body.count))
            #expect(head.header("Content-Encoding") == "gzip" && head.header("ETag") == gzip.header("ETag"))
            #expect(identityHead.header("Content-Length") == String(identity.body.count))
            #expect(identityHead.header("ETag") == identity.header("ETag"))
            // A range is of the identity bytes, served from the listing's file like a document's.
            #expect(range.status == 206 && range.body == Array(identity.body.prefix(100)))
            #expect(range.header("Content-Encoding") == nil && range.header("ETag") == identity.header("ETag"))
            for answer in [refused, unlisted] {
                #expect(answer.status == 200 && answer.body == identity.body)
                #expect(answer.header("Content-Encoding") == nil && answer.values("Vary") == ["Accept-Encoding"])
            }
        }
    }

    @Test func compressedOnceAndAnewAfterTheListingChanges() async throws {
        try await withDocuments(Self.documents) { larder, upstream in
            #expect(try await larder.waitForSync())
            let first = try await larder.get("/documents", headers: [Self.gzip])
            let listing = try #require(larder.application?.documents?.listing.file)
            let compressed = try #require(listing.gzip)
            let second = try await larder.get("/documents", headers: [Self.gzip])
            #expect(second.body == first.body)
            #expect(larder.application?.documents?.listing.file?.gzip == compressed,
                    "the same compressed file serves every request")
            var changed = Self.documents
            changed[0] = TestDocument("doc-1.txt", "document number 1, revised\n")
            changed[0].updatedAt = "2026-11-02T10:00:00Z"
            try await upstream.publish(changed)
            #expect(try await larder.post("/documents/refresh").json?["updated"] as? Int == 1)
            let after = try await larder.get("/documents", headers: [Self.gzip])
            let identity = try await larder.get("/documents")
            #expect(after.body != first.body && after.header("ETag") != first.header("ETag"))
            #expect(gunzip(after.body) == identity.body)
            #expect(larder.application?.documents?.listing.file?.gzip != compressed)
        }
    }
}
