import Crypto
import Foundation
import LarderApp
import LarderConfig
import LarderTesting
import LarderUpstream
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
        big.content = noise(50 * 1024 * 1024)
        let harness = try await DocumentsHarness([big])
        try harness.start()
        #expect(await harness.waitForSync())
        let full = try await harness.get("/documents/big.bin")
        let tail = try await harness.get("/documents/big.bin", headers: [("Range", "bytes=-100")])
        let middle = try await harness.get("/documents/big.bin", headers: [("Range", "bytes=1000000-1000099")])
        let beyond = try await harness.get("/documents/big.bin", headers: [("Range", "bytes=60000000-")])
        await harness.finish()
        #expect(full.status == 200)
        #expect(full.body.count == big.content.count)
        #expect(SHA256.hash(data: full.body).map { String(format: "%02x", $0) }.joined() == big.sha256)
        #expect(tail.status == 206 && tail.body == Array(big.content.suffix(100)))
        #expect(tail.header("Content-Range") == "bytes 52428700-52428799/52428800")
        #expect(middle.status == 206 && middle.body == Array(big.content[1_000_000..<1_000_100]))
        #expect(beyond.status == 416 && beyond.header("Content-Range") == "bytes */52428800")
    }

    @Test func aLargeDocumentReplacedUpstreamIsServedNewAndListedNew() async throws {
        // Past the size from which the mirror maps files for sending.
        var large = TestDocument("large.bin", "")
        large.content = noise(300 * 1024, seed: 7)
        let harness = try await DocumentsHarness([large])
        try harness.start()
        #expect(await harness.waitForSync())
        let before = try await harness.get("/documents/large.bin")
        let listingBefore = try await harness.get("/documents")
        let unchanged = try await harness.post("/documents/refresh")
        let listingUnchanged = try await harness.get("/documents")
        var replaced = large
        replaced.content = noise(310 * 1024, seed: 8)
        replaced.updatedAt = "2026-11-10T00:00:00Z"
        try await harness.publish([replaced])
        let refresh = try await harness.post("/documents/refresh")
        let after = try await harness.get("/documents/large.bin")
        let part = try await harness.get("/documents/large.bin", headers: [("Range", "bytes=-10")])
        let listingAfter = try await harness.get("/documents")
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.cacheDirectory + "/documents")
        await harness.finish()
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

    @Test func aBodyOverTheCapIsRefusedAndTheOldCopyStays() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        var bumped = sampleDocuments
        bumped[0].updatedAt = "2026-11-09T00:00:00Z"
        bumped[0].claimedSHA256 = String(repeating: "cd", count: 32)
        bumped[0].claimedSize = 300 * 1024 * 1024
        try await harness.publish(bumped)
        try await harness.fault(#"{"path":"/docs/a.txt","gzip_bomb_mib":300}"#)
        let refresh = try await harness.post("/documents/refresh")
        let a = try await harness.get("/documents/a.txt")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.cacheDirectory + "/documents")
        await harness.finish()
        #expect(refresh.json?["failed"] as? Int == 1)
        #expect(a.body == sampleDocuments[0].content)
        #expect(!leftovers.contains { $0.hasSuffix(".larder-partial") })
    }

    @Test func aSecondLarderMirrorsTheFirst() async throws {
        let first = try await DocumentsHarness(sampleDocuments)
        try first.start()
        #expect(await first.waitForSync())
        var configuration = first.configuration
        configuration.cacheDirectory = first.cacheDirectory + "-second"
        configuration.documents = UpstreamResource(url: "http://127.0.0.1:\(first.port)/documents", format: .auto)
        let second = try LarderApplication(configuration: configuration, logger: quietLogger)
        try second.server.start()
        let outcome = await second.documents?.refresher.refresh()
        var bodies: [[UInt8]] = []
        for document in sampleDocuments {
            let port = second.server.port
            bodies.append(try await onThread { try TestConnection.fetch(port: port, "/documents/" + document.name).body })
        }
        await second.server.stop()
        await second.shutdownUpstreamClient()
        try? FileManager.default.removeItem(atPath: configuration.cacheDirectory)
        await first.finish()
        guard case .success(let counts) = outcome else {
            Issue.record("the second Larder's sync failed: \(String(describing: outcome))")
            return
        }
        #expect(counts.added == 3)
        #expect(bodies == sampleDocuments.map(\.content))
    }
}
