import Crypto
import Foundation
import LarderApp
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFreshness
import LarderTesting
import Testing

/// Deterministic bytes that do not compress (xorshift), so a large body really is large on the wire.
func noise(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in stride(from: 0, to: count, by: 8) {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        withUnsafeBytes(of: state) { word in
            for offset in 0..<min(8, count - index) { bytes[index + offset] = word[offset] }
        }
    }
    return bytes
}

@Suite("Documents: large bodies, caps, chained Larders", .serialized)
struct DocumentsLargeAndChainedTests {
    @Test func a50MiBDocumentIsServedByteExactWithRanges() async throws {
        var big = TestDocument("big.bin", "")
        // 50 MiB made and hashed on a thread of its own, off the cooperative pool (`onThread`), once.
        (big.content, big.claimedSHA256) = try await onThread {
            let content = noise(50 * 1024 * 1024)
            return (content, SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined())
        }
        try await withDocuments([big]) { larder, _ in
            #expect(try await larder.waitForSync())
            var full = try await larder.get("/documents/big.bin")
            if full.status != 200 {
                // A CI machine running every suite at once once outlasted the 60 s upstream timeout on the
                // 50 MiB download (the test took 67 s): one more sync, asked for, as an operator would.
                _ = try await larder.post("/documents/refresh")
                full = try await larder.get("/documents/big.bin")
            }
            let tail = try await larder.get("/documents/big.bin", headers: [("Range", "bytes=-100")])
            let middle = try await larder.get("/documents/big.bin", headers: [("Range", "bytes=1000000-1000099")])
            let beyond = try await larder.get("/documents/big.bin", headers: [("Range", "bytes=60000000-")])
            #expect(full.status == 200)
            #expect(full.body.count == big.content.count)
            #expect(SHA256.hash(data: full.body).map { String(format: "%02x", $0) }.joined() == big.claimedSHA256)
            #expect(tail.status == 206 && tail.body == Array(big.content.suffix(100)))
            #expect(tail.header("Content-Range") == "bytes 52428700-52428799/52428800")
            #expect(middle.status == 206 && middle.body == Array(big.content[1_000_000..<1_000_100]))
            #expect(beyond.status == 416 && beyond.header("Content-Range") == "bytes */52428800")
        }
    }

    @Test func aLargeDocumentReplacedUpstreamIsServedNewAndListedNew() async throws {
        // Past the size from which the mirror maps files for sending.
        var large = TestDocument("large.bin", "")
        large.content = noise(300 * 1024, seed: 7)
        try await withDocuments([large]) { larder, upstream in
            #expect(try await larder.waitForSync())
            let before = try await larder.get("/documents/large.bin")
            let listingBefore = try await larder.get("/documents")
            let unchanged = try await larder.post("/documents/refresh")
            let listingUnchanged = try await larder.get("/documents")
            var replaced = large
            replaced.content = noise(310 * 1024, seed: 8)
            replaced.updatedAt = "2026-11-10T00:00:00Z"
            try await upstream.publish([replaced])
            let refresh = try await larder.post("/documents/refresh")
            let after = try await larder.get("/documents/large.bin")
            let part = try await larder.get("/documents/large.bin", headers: [("Range", "bytes=-10")])
            let listingAfter = try await larder.get("/documents")
            let files = try FileManager.default.contentsOfDirectory(atPath: larder.cacheDirectory + "/documents")
            #expect(before.body == large.content)
            #expect(unchanged.json?["unchanged"] as? Int == 1)
            #expect(listingUnchanged.header("ETag") == listingBefore.header("ETag"), "a sync that changed nothing keeps the listing")
            #expect(refresh.json?["updated"] as? Int == 1, "\(refresh.text)")
            #expect(after.body == replaced.content)
            #expect(after.header("ETag") == "\"" + replaced.sha256.prefix(32) + "\"")
            #expect(part.status == 206 && part.body == Array(replaced.content.suffix(10)))
            #expect(listingAfter.text.contains(replaced.sha256) && !listingAfter.text.contains(large.sha256))
            #expect(files.count == 1, "the replaced file is deleted: \(files)")
        }
    }

    @Test func aBodyOverTheCapIsRefusedAndTheOldCopyStays() async throws {
        try await withDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            var bumped = sampleDocuments
            bumped[0].updatedAt = "2026-11-09T00:00:00Z"
            bumped[0].claimedSHA256 = String(repeating: "cd", count: 32)
            bumped[0].claimedSize = 300 * 1024 * 1024
            try await upstream.publish(bumped)
            try await upstream.fault(#"{"path":"/docs/a.txt","gzip_bomb_mib":300}"#)
            let refresh = try await larder.post("/documents/refresh")
            let a = try await larder.get("/documents/a.txt")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: larder.cacheDirectory + "/documents")
            #expect(refresh.json?["failed"] as? Int == 1)
            #expect(a.body == sampleDocuments[0].content)
            #expect(!leftovers.contains { $0.hasSuffix(".larder-partial") })
        }
    }

    @Test func theConfiguredCapsBoundTheIndexAndEachDocument() async throws {
        // The sample documents are a few bytes each and pass a 4 KiB cap; their index is far over 256 bytes.
        var large = TestDocument("large.txt", "")
        large.content = noise(8 * 1024, seed: 3)
        try await withDocuments(sampleDocuments + [large]) { configuration, _ in
            configuration.documentsMaxBytes = 4 * 1024
        } _: { larder, _ in
            #expect(try await larder.waitForSync())
            let status = try await larder.get("/status").json?["resources"] as? [String: [String: Any]]
            let failed = status?["documents"]?["failed_documents"] as? [[String: Any]]
            #expect(failed?.map { $0["name"] as? String } == ["large.txt"], "\(String(describing: failed))")
            #expect((failed?.first?["error"] as? String)?.contains("4096 bytes cap") == true, "\(String(describing: failed))")
            #expect(try await larder.get("/documents/a.txt").status == 200)
        }
        try await withDocuments(sampleDocuments) { configuration, _ in
            configuration.documentsIndexMaxBytes = 256
        } _: { larder, _ in
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 502)
            #expect(refresh.text.contains("256 bytes cap"), "\(refresh.text)")
            #expect(try await larder.get("/documents").status != 200, "no index was accepted")
        }
    }

    @Test func aSecondLarderMirrorsTheFirst() async throws {
        try await withDocuments(sampleDocuments) { first, _ in
            #expect(try await first.waitForSync())
            // The second Larder's upstream is the first one's /documents (its own sample upstream is unused).
            try await withLarder { configuration, _ in
                configuration.documents = UpstreamResource(url: "http://127.0.0.1:\(first.port)/documents", format: .auto)
            } _: { second, _ in
                #expect(try await second.waitForSync())
                let status = try await second.get("/status").json?["resources"] as? [String: [String: Any]]
                var bodies: [[UInt8]] = []
                for document in sampleDocuments {
                    bodies.append(try await second.get("/documents/" + document.name).body)
                }
                // A fresh cache: all three were added by the first sync, none failed.
                let counts = status?["documents"]?["counts"] as? [String: Any]
                #expect(counts?["mirrored"] as? Int == 3, "\(String(describing: status?["documents"]))")
                #expect(counts?["failed"] as? Int == 0)
                #expect(bodies == sampleDocuments.map(\.content))
            }
        }
    }

    @Test func aSecondLarderFollowsTheFirstsMaxAge() async throws {
        try await withDocuments(sampleDocuments) { configuration, _ in
            configuration.documentsTTL = .seconds(7)
        } _: { first, _ in
            #expect(try await first.waitForSync())
            try await withLarder { configuration, _ in
                configuration.documents = UpstreamResource(url: "http://127.0.0.1:\(first.port)/documents", format: .auto)
                configuration.documentsSchedule = .follow
            } _: { second, _ in
                #expect(try await second.waitForSync())
                let status = try await second.get("/status").json?["resources"] as? [String: [String: Any]]
                // The first's listing says max-age=7 (its 7 s TTL on a clock that has not moved): the second
                // revalidates then, not after its own 15 minutes.
                #expect(status?["documents"]?["ttl_seconds"] as? Int == 7, "\(String(describing: status?["documents"]))")
                let fetched = second.application?.documents?.refresher.status.lastAttempt
                second.clock.advance(by: 7)
                let followed = try await eventually(timeout: .seconds(30)) {
                    second.application?.documents?.refresher.status.lastAttempt != fetched
                        && second.application?.documents?.refresher.isRefreshing == false
                }
                #expect(followed, "asked again once the first's max-age ran out")
            }
        }
    }
}
