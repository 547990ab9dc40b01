import Foundation
import LarderApp
import LarderConfig
import LarderDocumentsCache
import LarderFreshness
import LarderStore
import LarderTesting
import Testing

let sampleDocuments = [
    TestDocument("a.txt", "alpha\n"), TestDocument("b.txt", "bravo bravo\n"), TestDocument("c.md", "# charlie\n"),
]

@Suite("Documents: the mirror over loopback", .serialized)
struct DocumentsMirrorTests {
    @Test func everythingArrivesInTheBackgroundAndASecondStartDownloadsNothing() async throws {
        try await withDocuments(sampleDocuments) { _, upstream in
            for document in sampleDocuments {
                // Long enough that a machine busy with every other suite still sees the sync running.
                try await upstream.fault(#"{"path":"/docs/\#(document.name)","delay_ms":4000,"times":1}"#)
            }
        } _: { larder, upstream in
            // Slow downloads: the sync is still running while /health answers.
            _ = try await eventually(timeout: .seconds(20)) { larder.application?.documents?.refresher.isRefreshing ?? false }
            let health = try await larder.get("/health")
            #expect(health.status == 200)
            #expect(larder.application?.documents?.refresher.isRefreshing == true, "answered while the sync runs")
            // The sync's progress, while it runs (each download takes 4 s).
            var during: [String: Any]?
            #expect(try await eventually(timeout: .seconds(60)) {
                let status = try await larder.get("/status").json?["resources"] as? [String: [String: Any]]
                during = status?["documents"]?["sync"] as? [String: Any]
                return during?["total"] as? Int == 3
            })
            #expect(during?["running"] as? Bool == true)
            #expect((during?["done"] as? Int).map { $0 < 3 } == true, "\(String(describing: during))")
            #expect(try await larder.waitForSync())
            for document in sampleDocuments {
                let answer = try await larder.get("/documents/" + document.name)
                #expect(answer.status == 200)
                #expect(answer.body == document.content)
                #expect(answer.header("ETag") == "\"" + document.sha256.prefix(32) + "\"")
                #expect(answer.header("X-Content-Type-Options") == "nosniff")
            }
            let listing = try await larder.get("/documents")
            #expect((listing.json?["documents"] as? [[String: Any]])?.map { $0["url"] as? String } == [
                "/documents/a.txt", "/documents/b.txt", "/documents/c.md",
            ])
            await larder.stop()
            try await upstream.resetRequests()
            try await larder.start()
            #expect(try await larder.waitForSync())
            let counts = try await upstream.allRequests()
            #expect(counts[DocumentsFeed.indexPath]?.statuses == ["304": 1])
            #expect(counts.keys.sorted() == [DocumentsFeed.indexPath], "no document downloaded again")
        }
    }

    @Test func manyDocumentsCommitInBatchesAndStrayOrDamagedFilesAreFoundAfterStart() async throws {
        // More than four batches' worth, so full batches and the last partial one all commit, and more
        // than a page of the store's reads (1,000), so the sync and the listing cross pages.
        let count = 1_050
        let many = (0..<count).map { TestDocument("n\($0).txt", "document \($0)\n") }
        try await withDocuments(many) { larder, _ in
            #expect(try await larder.waitForSync())
            let progress = larder.application?.documents?.syncProgress
            #expect(progress == SyncProgress.Snapshot(
                running: false, total: count, done: count, failed: 0, bytes: many.reduce(0) { $0 + $1.content.count }))
            let status = try await larder.get("/status").json?["resources"] as? [String: [String: Any]]
            #expect((status?["documents"]?["counts"] as? [String: Any])?["mirrored"] as? Int == count)
            let sync = status?["documents"]?["sync"] as? [String: Any]
            #expect(sync?["running"] as? Bool == false && sync?["done"] as? Int == count && sync?["total"] as? Int == count)
            let store = try Store(directory: larder.cacheDirectory, logger: quietLogger)
            #expect(try store.documentFiles().count == count)
            let listing = try await larder.get("/documents", headers: [("Accept-Encoding", "gzip")])
            let names = (try JSONSerialization.jsonObject(with: Data(gunzip(listing.body) ?? [])) as? [String: Any])?["documents"]
                as? [[String: Any]]
            #expect(names?.compactMap { $0["name"] as? String } == many.map(\.name), "every entry, in index order")

            // A file renamed into place by a batch that never committed (a kill between the two).
            await larder.stop()
            let directory = larder.cacheDirectory + "/documents"
            let stray = "n1.txt~" + String(repeating: "f", count: 16)
            try Data("not committed".utf8).write(to: URL(fileURLWithPath: directory + "/" + stray))
            try await larder.start()
            #expect(try await larder.waitForSync())
            let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(!files.contains(stray), "the first sync sweeps files no record names")
            #expect(files.count == count)
            // Rendered anew after the restart from the store: the same bytes, so the same validator.
            let again = try await larder.get("/documents", headers: [("Accept-Encoding", "gzip")])
            #expect(again.body == listing.body && again.header("ETag") == listing.header("ETag"))
            #expect(try await larder.get("/documents/n1.txt").body == many[1].content)

            // A file damaged while Larder runs is found when a request opens it, and fetched again.
            let damaged = try #require(files.first { $0.hasPrefix("n3.txt~") })
            try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/" + damaged))
            let answer = try await larder.get("/documents/n3.txt")
            #expect(answer.status == 200 && answer.body == many[3].content, "\(answer.status) \(answer.text)")
        }
    }

    @Test func aNewerUpdatedAtRefetchesOnlyThatDocument() async throws {
        try await withDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            try await upstream.resetRequests()
            let unchanged = try await larder.post("/documents/refresh")
            #expect(unchanged.json?["index"] as? String == "not_modified")
            #expect(try await upstream.allRequests().keys.sorted() == [DocumentsFeed.indexPath])
            var changed = sampleDocuments
            changed[1] = TestDocument("b.txt", "bravo, revised\n")
            changed[1].updatedAt = "2026-11-02T10:00:00Z"
            try await upstream.publish(changed)
            try await upstream.resetRequests()
            let refresh = try await larder.post("/documents/refresh")
            let b = try await larder.get("/documents/b.txt")
            let counts = try await upstream.allRequests()
            #expect(refresh.json?["updated"] as? Int == 1)
            #expect(refresh.json?["unchanged"] as? Int == 2)
            #expect(counts.keys.sorted() == ["/docs/b.txt", DocumentsFeed.indexPath])
            #expect(b.text == "bravo, revised\n")
        }
    }

    static let refusedIndexes: [(String, String)] = [
        ("truncated", String(DocumentsFeed.index(sampleDocuments).dropLast(30))),
        ("dot-dot name", DocumentsFeed.index([TestDocument("../a.txt", "x")])),
        ("encoded dot-dot", DocumentsFeed.index([TestDocument("%2e%2e", "x")])),
        ("absolute name", DocumentsFeed.index([TestDocument("/etc/passwd", "x")])),
        ("NUL in a name", DocumentsFeed.index([TestDocument("a\\u0000.txt", "x")])),
        ("case duplicate", DocumentsFeed.index([TestDocument("A.txt", "x"), TestDocument("a.txt", "y")])),
        ("unknown version", DocumentsFeed.index(sampleDocuments).replacingOccurrences(of: #""version":1"#, with: #""version":2"#)),
        ("billion laughs", """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>
            <documents version="1"><document name="&lol2;"/></documents>
            """),
    ]

    @Test(arguments: refusedIndexes)
    func aRefusedIndexChangesNothing(name: String, index: String) async throws {
        try await withDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            let before = try await larder.get("/documents")
            try await upstream.put(DocumentsFeed.indexPath, index)
            let refresh = try await larder.post("/documents/refresh")
            let after = try await larder.get("/documents")
            let a = try await larder.get("/documents/a.txt")
            #expect(refresh.status == 502, "\(name)")
            #expect(refresh.errorCode == "upstream_failed")
            #expect(after.text == before.text)
            #expect(a.body == sampleDocuments[0].content)
        }
    }

    @Test func aHashOrSizeMismatchKeepsTheOldCopy() async throws {
        try await withDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            var tampered = sampleDocuments
            tampered[0] = TestDocument("a.txt", "tampered!\n")
            tampered[0].claimedSHA256 = String(repeating: "ab", count: 32)
            tampered[0].updatedAt = "2026-11-05T00:00:00Z"
            tampered[2] = TestDocument("c.md", "# charlie, longer than claimed\n")
            tampered[2].claimedSize = 3
            try await upstream.publish(tampered)
            let refresh = try await larder.post("/documents/refresh")
            let a = try await larder.get("/documents/a.txt")
            let c = try await larder.get("/documents/c.md")
            #expect(refresh.json?["failed"] as? Int == 2)
            #expect(a.body == sampleDocuments[0].content)
            #expect(c.body == sampleDocuments[2].content)
        }
    }

    @Test func anEntryLeavesTheMirrorOnlyWithAValidIndex() async throws {
        try await withDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            // Removed from a refused index: stays.
            try await upstream.put(DocumentsFeed.indexPath, String(DocumentsFeed.index(Array(sampleDocuments.prefix(2))).dropLast(5)))
            _ = try await larder.post("/documents/refresh")
            let kept = try await larder.get("/documents/c.md")
            // Removed from a valid index: gone, file and all.
            try await upstream.publish(Array(sampleDocuments.prefix(2)))
            let refresh = try await larder.post("/documents/refresh")
            let gone = try await larder.get("/documents/c.md")
            let files = try FileManager.default.contentsOfDirectory(atPath: larder.cacheDirectory + "/documents")
            #expect(kept.status == 200)
            #expect(refresh.json?["removed"] as? Int == 1)
            #expect(gone.status == 404)
            #expect(files.count == 2 && !files.contains { $0.hasPrefix("c.md") })
        }
    }

    /// SPEC §4.9: another `--documents-url` keeps the mirror, served stale, until the new index syncs;
    /// then its index replaces the old, and only files it does not vouch for are fetched again.
    @Test func aChangedIndexURLKeepsTheMirrorUntilTheNewIndexIsSynced() async throws {
        try await withDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            var changed = sampleDocuments[1]
            changed.content = Array("b, as the new upstream has it\n".utf8)
            let added = TestDocument("d.txt", "only the new upstream has d\n")
            let next = [sampleDocuments[0], changed, added]
            for document in next { try await upstream.put("/next/" + document.name, document.content) }
            try await upstream.put("/next/index.json", DocumentsFeed.index(next))
            try await upstream.fault(#"{"path":"/next/index.json","status":503}"#)
            try await larder.restart { $0.documents?.url = upstream.url("/next/index.json") }
            #expect(try await larder.waitForSync())
            let kept = try await larder.get("/documents/b.txt")
            let keptC = try await larder.get("/documents/c.md")
            try await upstream.clearFaults()
            try await upstream.resetRequests()
            let refresh = try await larder.post("/documents/refresh")
            let replaced = try await larder.get("/documents/b.txt")
            let gone = try await larder.get("/documents/c.md")
            let new = try await larder.get("/documents/d.txt")
            let listing = try await larder.get("/documents")
            let requests = try await upstream.allRequests()
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
    }

    @Test func withTheUpstreamDownEverythingIsServedAndARestartServesAtOnce() async throws {
        try await withDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            let listed = try await larder.get("/documents")
            await upstream.stop()
            larder.clock.advance(by: 1000)
            let refresh = try await larder.post("/documents/refresh")
            let stale = try await larder.get("/documents/b.txt")
            try await larder.restart()
            let restarted = try await larder.get("/documents/b.txt")
            let listing = try await larder.get("/documents")
            #expect(refresh.status == 502)
            #expect(stale.body == sampleDocuments[1].content)
            // Unreachable, or an error when a pooled connection to the stopped upstream was cut: either way shown.
            #expect(stale.header("Cache-Status")?.contains("; detail=upstream-") == true)
            #expect(restarted.body == sampleDocuments[1].content)
            #expect((listing.json?["documents"] as? [Any])?.count == 3)
            // Read back from the store, not held from the sync: the same listing, timestamps included.
            #expect(listing.text == listed.text)
        }
    }

    @Test func theRefreshRouteNeedsTheAdminTokenAndReportsCounts() async throws {
        try await withDocuments(sampleDocuments) { configuration, _ in
            configuration.adminToken = "s3cret"
        } _: { larder, _ in
            #expect(try await larder.waitForSync())
            let refused = try await larder.post("/documents/refresh")
            let allowed = try await larder.post("/documents/refresh", headers: [("Authorization", "Bearer s3cret")])
            #expect(refused.status == 401)
            #expect(allowed.status == 200)
            #expect(allowed.json?["unchanged"] as? Int == 3)
            #expect(Set(allowed.json?.keys.map { $0 } ?? []) == ["added", "updated", "removed", "unchanged", "failed", "index"])
        }
    }

    @Test func aListedDocumentNotYetMirroredIsFetchedOnDemand() async throws {
        try await withDocuments(sampleDocuments) { _, upstream in
            try await upstream.fault(#"{"path":"/docs/b.txt","status":503,"times":1}"#)
        } _: { larder, _ in
            #expect(try await larder.waitForSync())
            let b = try await larder.get("/documents/b.txt")
            #expect(b.status == 200)
            #expect(b.body == sampleDocuments[1].content)
        }
    }

    @Test(arguments: [
        ("/documents/..%2F..%2Fetc%2Fpasswd", [400, 404]), ("/documents/%2e%2e", [400, 404]),
        ("/documents/%252e%252e%252fetc", [400, 404]), ("/documents/a.txt%00", [400]),
        ("/documents/..%5Ca.txt", [400, 404]), ("/documents/a.txt~0000000000000000", [400, 404]),
        ("/documents/.a.txt", [400, 404]), ("/documents/%EF%BD%81.txt", [400, 404]),
        ("/documents/a.txt.larder-partial", [400, 404]), ("/documents/../../etc/passwd", [400, 404]),
    ])
    func traversalAttemptsNeverLeakAFile(target: String, statuses: [Int]) async throws {
        try await withDocuments(sampleDocuments) { larder, _ in
            #expect(try await larder.waitForSync())
            let answer = try await larder.get(target)
            #expect(statuses.contains(answer.status), "\(target) → \(answer.status)")
            #expect(answer.header("Content-Type") == "application/json")
        }
    }
}
