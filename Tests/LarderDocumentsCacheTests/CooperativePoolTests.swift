import Foundation
import LarderApp
@testable import LarderDocumentsCache
import LarderTesting
import Synchronization
import Testing

/// A disk slow to sync, as the documents' commits see it once armed: every commit waits at the gate
/// until it opens (or `limit` passes, so a regression fails the test instead of hanging the run).
private final class SlowDisk: CommitObserver {
    let stalled = Atomic<Int>(0)
    private let armed = Atomic<Bool>(false)
    private let open = Atomic<Bool>(false)
    private let limit: Duration = .seconds(30)

    func arm() { armed.store(true, ordering: .releasing) }

    func commitStarting() {
        guard armed.load(ordering: .acquiring) else { return }
        stalled.add(1, ordering: .relaxed)
        let deadline = ContinuousClock.now + limit
        while !open.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(1_000) }
    }

    func release() { open.store(true, ordering: .releasing) }
}

@Suite("Slow disk work never blocks Swift's cooperative pool")
struct CooperativePoolTests {
    /// More commits stalled at once than the pool has threads: with any of them on the pool, the pool
    /// is full and nothing suspended (a refresh, a cold request, the test's own awaits) runs.
    static let stalledCommits = ProcessInfo.processInfo.activeProcessorCount + 2
    static let documents = (0..<stalledCommits).map { TestDocument("doc-\($0).txt", "document \($0)\n") }

    @Test func servingRefreshesAndStatusAnswerWhileCommitsWaitForTheDisk() async throws {
        let disk = SlowDisk()
        try await withDocuments(Self.documents, rates: true, commitObserver: disk) { _, upstream in
            // The first sync lists every document but cannot download any: they are fetched on demand below.
            for document in Self.documents {
                try await upstream.fault(#"{"path":"/docs/\#(document.name)","status":503}"#)
            }
        } _: { larder, upstream in
            #expect(try await larder.waitForSync())
            try await upstream.clearFaults()
            disk.arm()
            defer { disk.release() }
            let port = larder.port
            // Everything below runs on threads of its own and waits with bounds: should the pool be
            // full, the test's own awaits could not run either.
            let (stalledInTime, rates, refresh, status, documents) = try await onThread {
                let fetches = Self.documents.map { document in
                    Fetch(port: port, path: "/documents/" + document.name)
                }
                // Each request for an unmirrored document downloads it and commits it at once.
                let stalledInTime = try eventuallyBlocking(timeout: .seconds(10)) {
                    disk.stalled.load(ordering: .relaxed) >= Self.stalledCommits
                }
                let rates = try TestConnection(port: port, timeout: .seconds(5)).request("GET", "/rates")
                let refresh = try TestConnection(port: port, timeout: .seconds(5)).request("POST", "/rates/refresh")
                let status = try TestConnection(port: port, timeout: .seconds(5)).request("GET", "/status")
                disk.release()
                return (stalledInTime, rates, refresh, status, fetches.map { $0.wait() })
            }
            #expect(stalledInTime, "every commit reached the slow disk at once")
            #expect(rates.status == 200)
            #expect(refresh.status == 200, "\(refresh.text)")
            #expect(status.status == 200)
            #expect(documents == Self.documents.map { _ in 200 })
        }
    }
}

/// One request on a thread of its own; `wait()` gives its status (0 when it failed).
private final class Fetch: Sendable {
    private let result = Mutex<Int?>(nil)
    private let done = Atomic<Bool>(false)

    init(port: Int, path: String) {
        Thread { [self] in
            let status = (try? TestConnection(port: port, timeout: .seconds(40)).request("GET", path))?.status ?? 0
            result.withLock { $0 = status }
            done.store(true, ordering: .releasing)
        }.start()
    }

    func wait() -> Int {
        _ = try? eventuallyBlocking(timeout: .seconds(45)) { done.load(ordering: .acquiring) }
        return result.withLock { $0 } ?? 0
    }
}
