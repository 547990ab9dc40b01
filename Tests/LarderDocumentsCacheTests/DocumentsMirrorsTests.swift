import Foundation
import LarderApp
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFreshness
import LarderServing
import LarderTesting
import Testing

/// A second copy of the documents feed on the same sample upstream, under `/mirror/`.
enum MirrorFeed {
    static let folder = "/mirror/"
    static let indexPath = folder + "index.json"

    /// The sample documents with a new a.txt (new bytes, a later `updated_at`).
    static var revised: [TestDocument] {
        var documents = sampleDocuments
        // As long as the old one, so a mirror still serving the old bytes fails on its sha256.
        documents[0] = TestDocument("a.txt", "ALPHA\n")
        documents[0].updatedAt = "2026-11-21T00:00:00Z"
        return documents
    }
}

/// `withDocuments` with the same documents also published under `/mirror/`, and Larder's documents
/// pointed at two upstreams: `/docs/index.json` first, `/mirror/index.json` second.
func withMirroredDocuments<T: Sendable>(
    _ documents: [TestDocument], upstreamTimeout: Duration = .seconds(10),
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withDocuments(documents, upstreamTimeout: upstreamTimeout) { configuration, upstream in
        try await upstream.publish(documents, under: MirrorFeed.folder)
        configuration.documents = UpstreamResource(upstreams: [
            Upstream(url: upstream.url(DocumentsFeed.indexPath), format: .auto),
            Upstream(url: upstream.url(MirrorFeed.indexPath), format: .json),
        ])
        configuration.documentsTTL = .seconds(100)
        try await configure(&configuration, upstream)
    } _: { larder, upstream in
        try await body(larder, upstream)
    }
}

@Suite("Documents: several upstreams, the index and each document from the next when one fails", .serialized)
struct DocumentsMirrorsTests {
    /// The fault matrix's faults but "older data" (its own test below).
    static let faults = UpstreamFault.all.filter { !$0.regression }

    @Test(arguments: faults)
    func theIndexComesFromTheSecondUpstreamInTheSameSync(fault: UpstreamFault) async throws {
        let deadPort = try freePort()
        try await withMirroredDocuments(sampleDocuments, upstreamTimeout: .seconds(1)) { configuration, upstream in
            if let json = fault.fault { try await upstream.fault(json.replacingOccurrences(of: "PATH", with: DocumentsFeed.indexPath)) }
            if fault.connectionRefused {
                configuration.documents = UpstreamResource(upstreams: [
                    Upstream(url: "http://127.0.0.1:\(deadPort)\(DocumentsFeed.indexPath)", format: .auto),
                    Upstream(url: upstream.url(MirrorFeed.indexPath), format: .json),
                ])
            }
        } _: { larder, upstream in
            let primary = fault.connectionRefused ? "http://127.0.0.1:\(deadPort)\(DocumentsFeed.indexPath)" : upstream.url(DocumentsFeed.indexPath)
            #expect(try await larder.waitForSync())
            let documents = try #require(larder.application?.documents)
            #expect(documents.refresher.status.lastError == nil, "the sync succeeded: \(String(describing: documents.refresher.status.lastError))")
            for document in sampleDocuments {
                let answer = try await larder.get("/documents/" + document.name)
                #expect(answer.status == 200 && answer.body == document.content, "\(document.name)")
            }
            let requests = try await upstream.allRequests()
            #expect(asked(requests[DocumentsFeed.indexPath]) == (fault.connectionRefused ? 0 : 1), "the primary was asked once")
            #expect(requests[MirrorFeed.indexPath]?.total == 1)
            // Its documents come from the upstream whose index was taken.
            #expect(requests["/mirror/a.txt"]?.total == 1 && requests["/docs/a.txt"] == nil)
            let reports = documents.upstreamReports
            #expect(reports.map(\.label) == [primary, upstream.url(MirrorFeed.indexPath)])
            #expect(reports.first?.report.state == .open && reports.first?.report.consecutiveFailures == 1)
            #expect(reports.last?.report.state == .closed && reports.last?.report.lastSuccess != nil)
            #expect(reports.last?.format == "json")

            // Within the primary's breaker window (30 s) the next sync asks the secondary alone, conditionally.
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 200, "\(refresh.text)")
            let after = try await upstream.allRequests()
            #expect(asked(after[DocumentsFeed.indexPath]) == asked(requests[DocumentsFeed.indexPath]), "a dead primary costs one attempt per breaker window")
            #expect(after[MirrorFeed.indexPath]?.statuses["304"] == 1, "the secondary's validators went to the secondary")
        }
    }

    @Test func aRecoveredPrimaryIsAskedAgainWithoutTheSecondarysValidators() async throws {
        try await withMirroredDocuments(sampleDocuments) { _, upstream in
            try await upstream.fault(#"{"path":"/docs/index.json","status":503,"times":1}"#)
        } _: { larder, upstream in
            #expect(try await larder.waitForSync())
            // Past the primary's breaker window (30 s): it is asked first again (half-open). Both
            // upstreams serve the same bytes (the same strong ETag): had the secondary's validators
            // gone to the primary, it would answer 304.
            larder.clock.advance(by: 31)
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 200, "\(refresh.text)")
            let requests = try await upstream.allRequests()
            #expect(requests[DocumentsFeed.indexPath]?.statuses == ["503": 1, "200": 1], "\(String(describing: requests[DocumentsFeed.indexPath]))")
            #expect(requests[MirrorFeed.indexPath]?.total == 1, "the secondary is not asked while the primary answers")
            let primary = larder.application?.documents?.upstreamReports.first?.report
            #expect(primary?.state == .closed && primary?.consecutiveFailures == 0)
            // The primary's index is held now: the next sync revalidates it with the primary's validators.
            let again = try await larder.post("/documents/refresh")
            #expect(again.json?["index"] as? String == "not_modified", "\(again.text)")
            #expect(try await upstream.requests(DocumentsFeed.indexPath).statuses["304"] == 1)
        }
    }

    @Test func theListIsOneUpstreamAsASet() async throws {
        try await withMirroredDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            let primary = Upstream<DocumentsFormat>(url: upstream.url(DocumentsFeed.indexPath), format: .auto)
            let secondary = Upstream<DocumentsFormat>(url: upstream.url(MirrorFeed.indexPath), format: .json)
            // Both down across the restarts, so the copy's Cache-Status says whether the upstream changed.
            try await upstream.fault(#"{"path":"/docs/index.json","status":503}"#)
            try await upstream.fault(#"{"path":"/mirror/index.json","status":503}"#)
            try await larder.restart { $0.documents = UpstreamResource(upstreams: [secondary, primary]) }
            #expect(try await larder.waitForSync())
            let reordered = try await larder.get("/documents/a.txt")
            #expect(reordered.body == sampleDocuments[0].content)
            #expect(reordered.header("Cache-Status")?.contains("upstream-changed") == false, "reordering is no change")
            try await larder.restart { $0.documents = UpstreamResource(upstreams: [primary]) }
            #expect(try await larder.waitForSync())
            let removed = try await larder.get("/documents/a.txt")
            #expect(removed.body == sampleDocuments[0].content)
            #expect(removed.header("Cache-Status")?.hasSuffix("; detail=upstream-changed") == true, "removing one is a change")
        }
    }

    @Test func allUpstreamsDownKeepsTheMirrorAndNamesEachError() async throws {
        try await withMirroredDocuments(sampleDocuments, upstreamTimeout: .seconds(1)) { larder, upstream in
            #expect(try await larder.waitForSync())
            try await upstream.fault(#"{"path":"/docs/index.json","status":500}"#)
            try await upstream.fault(#"{"path":"/mirror/index.json","status":404}"#)
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 502)
            let error = larder.application?.documents?.refresher.status.lastError?.message ?? ""
            #expect(error.contains("/docs/index.json") && error.contains("/mirror/index.json"), "\(error)")
            #expect(try await larder.get("/documents/a.txt").body == sampleDocuments[0].content)
        }
    }

    /// One rule with the rates' (`UpstreamFailover.combined`): the first asked names the kind.
    @Test func whenBothFailTheFirstAskedNamesTheKind() async throws {
        try await withMirroredDocuments(sampleDocuments, upstreamTimeout: .seconds(1)) { larder, upstream in
            #expect(try await larder.waitForSync())
            try await upstream.fault(#"{"path":"/docs/index.json","delay_ms":3000}"#)
            try await upstream.fault(#"{"path":"/mirror/index.json","status":404}"#)
            #expect(try await larder.post("/documents/refresh").status != 200)
            let error = larder.application?.documents?.refresher.status.lastError
            #expect(error?.kind == .unreachable, "the primary's timeout, not the mirror's 404: \(String(describing: error))")
            #expect(error?.message.hasPrefix("every upstream failed: ") == true, "\(String(describing: error))")
        }
    }

    @Test func anOlderIndexOnThePrimaryMovesToTheSecondary() async throws {
        try await withMirroredDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            // The secondary publishes a newer index with a newer a.txt; the primary's is older than the held one.
            let newer = MirrorFeed.revised
            try await upstream.publish(newer, index: DocumentsFeed.index(newer)
                .replacingOccurrences(of: "2026-11-20T12:00:00Z", with: "2026-11-21T12:00:00Z"), under: MirrorFeed.folder)
            try await upstream.put(DocumentsFeed.indexPath, DocumentsFeed.index(sampleDocuments)
                .replacingOccurrences(of: "2026-11-20T12:00:00Z", with: "2026-11-19T12:00:00Z"))
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 200, "\(refresh.text)")
            #expect(try await larder.get("/documents/a.txt").body == newer[0].content)
        }
    }

    /// The fault matrix's faults a document can show on the same upstream as its index, and wrong bytes.
    static let documentFaults = UpstreamFault.all.filter { !$0.regression && !$0.connectionRefused }
        + [UpstreamFault(name: "other bytes than the index's sha256", fault: #"{"path":"PATH","body":"not alpha\n"}"#)]

    @Test(arguments: documentFaults)
    func aDocumentFailingOnThePrimaryComesFromTheSecondary(fault: UpstreamFault) async throws {
        try await withMirroredDocuments(sampleDocuments, upstreamTimeout: .seconds(1)) { _, upstream in
            try await upstream.fault(try #require(fault.fault).replacingOccurrences(of: "PATH", with: "/docs/a.txt"))
        } _: { larder, upstream in
            #expect(try await larder.waitForSync())
            #expect(larder.application?.documents?.failedDownloadCount == 0)
            let answer = try await larder.get("/documents/a.txt")
            #expect(answer.status == 200 && answer.body == sampleDocuments[0].content)
            #expect(answer.header("ETag") == "\"" + sampleDocuments[0].sha256.prefix(32) + "\"")
            let requests = try await upstream.allRequests()
            #expect(asked(requests["/docs/a.txt"]) == 1 && asked(requests["/mirror/a.txt"]) == 1)
            #expect(requests["/mirror/b.txt"] == nil, "only the failed document went to the secondary")
            #expect(requests[MirrorFeed.indexPath] == nil, "the index came from the primary")
        }
    }

    @Test func fallbacksRunInTheirDownloadSlotsSideBySide() async throws {
        // Twenty documents, each hanging past the timeout (1 s) on the primary: sixteen slots at once,
        // each falling back on its own, take about two timeouts; one after another, twenty.
        let many = (0..<20).map { TestDocument("h\($0).txt", "hung \($0)\n") }
        let started = ContinuousClock.now
        try await withMirroredDocuments(many, upstreamTimeout: .seconds(1)) { _, upstream in
            for document in many { try await upstream.fault(#"{"path":"/docs/\#(document.name)","delay_ms":5000}"#) }
        } _: { (larder: TestLarder, upstream: SampleUpstreamControl) async throws in
            #expect(try await larder.waitForSync())
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(8), "the sync took \(elapsed)")
            #expect(larder.application?.documents?.failedDownloadCount == 0)
            for document in many {
                #expect(try await larder.get("/documents/" + document.name).body == document.content)
            }
            #expect(try await upstream.requests("/mirror/h19.txt").total == 1)
        }
    }

    @Test func wrongBytesOnEveryMirrorAreNotStoredAndTheOldCopyIsKept() async throws {
        try await withMirroredDocuments(sampleDocuments) { larder, upstream in
            #expect(try await larder.waitForSync())
            // The index now lists a new a.txt; both mirrors still serve the old bytes (a wrong sha256).
            let newer = MirrorFeed.revised
            try await upstream.put(DocumentsFeed.indexPath, DocumentsFeed.index(newer))
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 200 && refresh.json?["failed"] as? Int == 1, "\(refresh.text)")
            let answer = try await larder.get("/documents/a.txt")
            #expect(answer.body == sampleDocuments[0].content, "the old copy is served")
            let failure = larder.application?.documents?.failedDownloads.first?.message ?? ""
            // Each upstream's reason, named by its index URL.
            #expect(failure.contains(upstream.url(DocumentsFeed.indexPath)) && failure.contains(upstream.url(MirrorFeed.indexPath)), "\(failure)")
            #expect(failure.contains("sha256"), "\(failure)")
            let requests = try await upstream.allRequests()
            #expect(requests["/mirror/a.txt"]?.total == 1, "the fallback (the first sync took a.txt from the primary)")
        }
    }

    @Test func aDocumentOffItsIndexOriginIsTriedOnlyWhereListed() async throws {
        var documents = sampleDocuments
        let port = try freePort()
        documents[0].url = "http://127.0.0.1:\(port)/docs/a.txt"
        try await withMirroredDocuments(documents, upstreamTimeout: .seconds(1)) { larder, upstream in
            #expect(try await larder.waitForSync())
            #expect(larder.application?.documents?.failedDownloadCount == 1)
            let requests = try await upstream.allRequests()
            #expect(requests["/mirror/a.txt"] == nil, "no relative path: not tried on the secondary")
            #expect(try await larder.get("/documents/b.txt").body == documents[1].content)
        }
    }

    /// Requests the sample upstream answered or still holds (a hang Larder gave up on is still in flight).
    private func asked(_ count: RequestCount?) -> Int {
        count.map { $0.total + $0.inFlight } ?? 0
    }
}
