import Foundation
import LarderTesting
import Testing

let sampleDocuments = [
    TestDocument("a.txt", "alpha\n"), TestDocument("b.txt", "bravo bravo\n"), TestDocument("c.md", "# charlie\n"),
]

@Suite("Documents: the mirror over loopback", .serialized)
struct DocumentsMirrorTests {
    @Test func everythingArrivesInTheBackgroundAndASecondStartDownloadsNothing() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        for document in sampleDocuments {
            try await harness.fault(#"{"path":"/docs/\#(document.name)","delay_ms":400,"times":1}"#)
        }
        try harness.start()
        // Slow downloads: the sync is still running while /health answers.
        for _ in 0..<200 where !(harness.app?.documents?.refresher.isRefreshing ?? false) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let health = try await harness.get("/health")
        #expect(health.status == 200)
        #expect(harness.app?.documents?.refresher.isRefreshing == true, "answered while the sync runs")
        #expect(await harness.waitForSync())
        for document in sampleDocuments {
            let answer = try await harness.get("/documents/" + document.name)
            #expect(answer.status == 200)
            #expect(answer.body == document.content)
            #expect(answer.header("ETag") == "\"" + document.sha256.prefix(32) + "\"")
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
        }
        let listing = try await harness.get("/documents")
        #expect((listing.json?["documents"] as? [[String: Any]])?.map { $0["url"] as? String } == [
            "/documents/a.txt", "/documents/b.txt", "/documents/c.md",
        ])
        await harness.stop()
        try await harness.resetRequests()
        try harness.start()
        #expect(await harness.waitForSync())
        let counts = try await harness.upstreamRequests()
        await harness.finish()
        #expect(counts[DocumentsHarness.indexPath]?.statuses == ["304": 1])
        #expect(counts.keys.sorted() == [DocumentsHarness.indexPath], "no document downloaded again")
    }

    @Test func aNewerUpdatedAtRefetchesOnlyThatDocument() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        try await harness.resetRequests()
        let unchanged = try await harness.post("/documents/refresh")
        #expect(unchanged.json?["index"] as? String == "not_modified")
        #expect(try await harness.upstreamRequests().keys.sorted() == [DocumentsHarness.indexPath])
        var changed = sampleDocuments
        changed[1] = TestDocument("b.txt", "bravo, revised\n")
        changed[1].updatedAt = "2026-11-02T10:00:00Z"
        try await harness.publish(changed)
        try await harness.resetRequests()
        let refresh = try await harness.post("/documents/refresh")
        let b = try await harness.get("/documents/b.txt")
        let counts = try await harness.upstreamRequests()
        await harness.finish()
        #expect(refresh.json?["updated"] as? Int == 1)
        #expect(refresh.json?["unchanged"] as? Int == 2)
        #expect(counts.keys.sorted() == ["/docs/b.txt", DocumentsHarness.indexPath])
        #expect(b.text == "bravo, revised\n")
    }

    static let refusedIndexes: [(String, String)] = [
        ("truncated", String(DocumentsHarness.index(sampleDocuments).dropLast(30))),
        ("dot-dot name", DocumentsHarness.index([TestDocument("../a.txt", "x")])),
        ("encoded dot-dot", DocumentsHarness.index([TestDocument("%2e%2e", "x")])),
        ("absolute name", DocumentsHarness.index([TestDocument("/etc/passwd", "x")])),
        ("NUL in a name", DocumentsHarness.index([TestDocument("a\\u0000.txt", "x")])),
        ("case duplicate", DocumentsHarness.index([TestDocument("A.txt", "x"), TestDocument("a.txt", "y")])),
        ("unknown version", DocumentsHarness.index(sampleDocuments).replacingOccurrences(of: #""version":1"#, with: #""version":2"#)),
        ("billion laughs", """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>
            <documents version="1"><document name="&lol2;"/></documents>
            """),
    ]

    @Test(arguments: refusedIndexes)
    func aRefusedIndexChangesNothing(name: String, index: String) async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        let before = try await harness.get("/documents")
        try await harness.put(DocumentsHarness.indexPath, Array(index.utf8))
        let refresh = try await harness.post("/documents/refresh")
        let after = try await harness.get("/documents")
        let a = try await harness.get("/documents/a.txt")
        await harness.finish()
        #expect(refresh.status == 502, "\(name)")
        #expect(refresh.errorCode == "upstream_failed")
        #expect(after.text == before.text)
        #expect(a.body == sampleDocuments[0].content)
    }

    @Test func aHashOrSizeMismatchKeepsTheOldCopy() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        var tampered = sampleDocuments
        tampered[0] = TestDocument("a.txt", "tampered!\n")
        tampered[0].claimedSHA256 = String(repeating: "ab", count: 32)
        tampered[0].updatedAt = "2026-11-05T00:00:00Z"
        tampered[2] = TestDocument("c.md", "# charlie, longer than claimed\n")
        tampered[2].claimedSize = 3
        try await harness.publish(tampered)
        let refresh = try await harness.post("/documents/refresh")
        let a = try await harness.get("/documents/a.txt")
        let c = try await harness.get("/documents/c.md")
        await harness.finish()
        #expect(refresh.json?["failed"] as? Int == 2)
        #expect(a.body == sampleDocuments[0].content)
        #expect(c.body == sampleDocuments[2].content)
    }

    @Test func anEntryLeavesTheMirrorOnlyWithAValidIndex() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        // Removed from a refused index: stays.
        try await harness.put(DocumentsHarness.indexPath, Array(DocumentsHarness.index(Array(sampleDocuments.prefix(2))).utf8.dropLast(5)))
        _ = try await harness.post("/documents/refresh")
        let kept = try await harness.get("/documents/c.md")
        // Removed from a valid index: gone, file and all.
        try await harness.publish(Array(sampleDocuments.prefix(2)))
        let refresh = try await harness.post("/documents/refresh")
        let gone = try await harness.get("/documents/c.md")
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.cacheDirectory + "/documents")
        await harness.finish()
        #expect(kept.status == 200)
        #expect(refresh.json?["removed"] as? Int == 1)
        #expect(gone.status == 404)
        #expect(files.count == 2 && !files.contains { $0.hasPrefix("c.md") })
    }

    /// SPEC §4.9: another `--documents-url` keeps the mirror, served stale, until the new index syncs;
    /// then its index replaces the old, and only files it does not vouch for are fetched again.
    @Test func aChangedIndexURLKeepsTheMirrorUntilTheNewIndexIsSynced() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        await harness.stop()
        var changed = sampleDocuments[1]
        changed.content = Array("b, as the new upstream has it\n".utf8)
        let added = TestDocument("d.txt", "only the new upstream has d\n")
        let next = [sampleDocuments[0], changed, added]
        for document in next { try await harness.put("/next/" + document.name, document.content) }
        try await harness.put("/next/index.json", Array(DocumentsHarness.index(next).utf8))
        try await harness.fault(#"{"path":"/next/index.json","status":503}"#)
        harness.configuration.documents?.url = harness.upstreamURL("/next/index.json")
        try harness.start()
        #expect(await harness.waitForSync())
        let kept = try await harness.get("/documents/b.txt")
        let keptC = try await harness.get("/documents/c.md")
        try await harness.clearFaults()
        try await harness.resetRequests()
        let refresh = try await harness.post("/documents/refresh")
        let replaced = try await harness.get("/documents/b.txt")
        let gone = try await harness.get("/documents/c.md")
        let new = try await harness.get("/documents/d.txt")
        let listing = try await harness.get("/documents")
        let requests = try await harness.upstreamRequests()
        await harness.finish()
        #expect(kept.body == sampleDocuments[1].content, "the old mirror is served while the new upstream fails")
        #expect(kept.header("Cache-Status")?.hasSuffix("; detail=upstream-changed") == true)
        #expect(keptC.status == 200)
        #expect(refresh.status == 200)
        #expect(replaced.body == changed.content)
        #expect(gone.status == 404)
        #expect(new.body == added.content)
        #expect((listing.json?["documents"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["a.txt", "b.txt", "d.txt"])
        #expect(requests["/next/a.txt"] == nil, "the new index vouches for a's bytes (same sha256): not fetched")
        #expect(replaced.header("Cache-Status")?.contains("upstream-changed") == false)
    }

    @Test func withTheUpstreamDownEverythingIsServedAndARestartServesAtOnce() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        await harness.upstream.server.stop()
        harness.clock.advance(by: 1000)
        let refresh = try await harness.post("/documents/refresh")
        let stale = try await harness.get("/documents/b.txt")
        await harness.stop()
        try harness.start()
        let restarted = try await harness.get("/documents/b.txt")
        let listing = try await harness.get("/documents")
        await harness.finish()
        #expect(refresh.status == 502)
        #expect(stale.body == sampleDocuments[1].content)
        // Unreachable, or an error when a pooled connection to the stopped upstream was cut: either way shown.
        #expect(stale.header("Cache-Status")?.contains("; detail=upstream-") == true)
        #expect(restarted.body == sampleDocuments[1].content)
        #expect((listing.json?["documents"] as? [Any])?.count == 3)
    }

    @Test func theRefreshRouteNeedsTheAdminTokenAndReportsCounts() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        harness.configuration.adminToken = "s3cret"
        try harness.start()
        #expect(await harness.waitForSync())
        let refused = try await harness.post("/documents/refresh")
        let port = harness.port
        let allowed = try await onThread {
            try TestConnection.fetch(port: port, "POST", "/documents/refresh", headers: [("Authorization", "Bearer s3cret")])
        }
        await harness.finish()
        #expect(refused.status == 401)
        #expect(allowed.status == 200)
        #expect(allowed.json?["unchanged"] as? Int == 3)
        #expect(Set(allowed.json?.keys.map { $0 } ?? []) == ["added", "updated", "removed", "unchanged", "failed", "index"])
    }

    @Test func aListedDocumentNotYetMirroredIsFetchedOnDemand() async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try await harness.fault(#"{"path":"/docs/b.txt","status":503,"times":1}"#)
        try harness.start()
        #expect(await harness.waitForSync())
        let b = try await harness.get("/documents/b.txt")
        await harness.finish()
        #expect(b.status == 200)
        #expect(b.body == sampleDocuments[1].content)
    }

    @Test(arguments: [
        ("/documents/..%2F..%2Fetc%2Fpasswd", [400, 404]), ("/documents/%2e%2e", [400, 404]),
        ("/documents/%252e%252e%252fetc", [400, 404]), ("/documents/a.txt%00", [400]),
        ("/documents/..%5Ca.txt", [400, 404]), ("/documents/a.txt~0000000000000000", [400, 404]),
        ("/documents/.a.txt", [400, 404]), ("/documents/%EF%BD%81.txt", [400, 404]),
        ("/documents/a.txt.larder-partial", [400, 404]), ("/documents/../../etc/passwd", [400, 404]),
    ])
    func traversalAttemptsNeverLeakAFile(target: String, statuses: [Int]) async throws {
        let harness = try await DocumentsHarness(sampleDocuments)
        try harness.start()
        #expect(await harness.waitForSync())
        let answer = try await harness.get(target)
        await harness.finish()
        #expect(statuses.contains(answer.status), "\(target) → \(answer.status)")
        #expect(answer.header("Content-Type") == "application/json")
    }
}
