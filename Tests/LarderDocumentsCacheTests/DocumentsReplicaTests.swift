import Foundation
import LarderConfig
import LarderDocuments
import LarderTesting
import Testing

/// A replica's documents are its primary Larder's listing (SPEC §4.14): once mirrored, a refresh with
/// nothing new costs the primary one conditional request of that listing, answered 304.
@Suite("Documents: a replica of a Larder refreshes with one 304 when nothing changed")
struct DocumentsReplicaTests {
    @Test func aRefreshWithNothingNewCostsThePrimaryOne304() async throws {
        try await withDocuments(sampleDocuments) { primary, _ in
            #expect(try await primary.waitForSync())
            try await withLarder { configuration, _ in
                configuration.documents = UpstreamResource(url: "http://127.0.0.1:\(primary.port)/documents", format: .auto)
                configuration.documentsTTL = .seconds(100)
            } _: { replica, _ in
                #expect(try await replica.waitForSync())
                let listing = try await replica.get("/documents")
                #expect(listing.text == (try await primary.get("/documents")).text, "the same listing, byte for byte")
                let asked = try await primary.requestsAnswered(under: "/documents") {
                    _ = try await replica.request("POST", "/documents/refresh")
                }
                #expect(asked == ["/documents 304": 1], "one conditional request, answered 304: \(asked)")
            }
        }
    }

}
