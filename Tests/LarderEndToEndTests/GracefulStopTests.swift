import Crypto
import Foundation
import LarderStore
import LarderTesting
import Testing

/// SIGTERM while background work runs (SPEC §2's graceful stop): the work is waited for, bounded,
/// before the upstream client and the store close, so the process exits 0 without a crash, the
/// store is whole, and the next start on the same directory serves what was stored.
@Suite("A graceful stop waits for the background work", .serialized)
struct GracefulStopTests {
    /// What a crash prints on standard error (Swift's runtime, the backtracer, the shell).
    static let crashMarkers = ["Fatal error", "Current stack trace", "Segmentation fault", "Crash", "Illegal instruction"]

    @Test func sigtermDuringACrossCheckWaitsForItThenCancelsOneThatHangs() async throws {
        try await withCrashScratch("larder-stop-crosscheck", upstream: "upstream") { root, cache in
            try history(version: 1, days: 5).write(toFile: root + "/upstream/feed.xml", atomically: true, encoding: .utf8)
            try history(version: 1, days: 5).write(toFile: root + "/upstream/mirror.xml", atomically: true, encoding: .utf8)
            let (waited, cancelled, daysBefore, restarted) = try await onThread {
                let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
                defer { upstream.signal(SIGKILL) }
                let upstreamPort = try upstream.waitForListening()
                // A TTL schedule: under the ECB calendar the feed's 2023 days lack the publication due, so the
                // refresh would ask the mirror as the next upstream, not cross-check it (SPEC §4.12).
                let arguments = [
                    "serve", "--port", "0", "--cache-dir", cache, "--rates-ttl", "1h", "--rates-schedule", "ttl",
                    "--rates-url", "http://127.0.0.1:\(upstreamPort)/feed.xml;format=ecb",
                    "--rates-url", "http://127.0.0.1:\(upstreamPort)/mirror.xml;format=ecb",
                ]
                /// Larder started with the mirror answering after `delay`, once the start's check asks it.
                func startChecking(mirrorDelayMs delay: Int) throws -> (larder: ChildProcess, port: Int) {
                    _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/faults")
                    _ = try TestConnection.fetch(
                        port: upstreamPort, "PUT", "/_control/faults", body: Array(#"{"path":"/mirror.xml","delay_ms":\#(delay)}"#.utf8))
                    let larder = try ChildProcess("larder", arguments)
                    let port = try larder.waitForListening()
                    try #require(try waitUntil { try inFlight(upstreamPort) { $0 == "/mirror.xml" } > 0 },
                                 "the cross-check never asked the mirror")
                    return (larder, port)
                }
                // A check that ends within the grace period: waited for.
                let first = try startChecking(mirrorDelayMs: 1500)
                defer { first.larder.signal(SIGKILL) }
                let daysBefore = try counts(first.port, "rates")?["days"] as? Int
                let waited = try Stopped(first.larder, cache: cache)
                // The next start checks the newest day again; the mirror now hangs past the grace period.
                let second = try startChecking(mirrorDelayMs: 60_000)
                defer { second.larder.signal(SIGKILL) }
                let cancelled = try Stopped(second.larder, cache: cache)
                _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/faults")
                let restarted = try Restarted(cache: cache, arguments: arguments) { port in try counts(port, "rates") }
                return (waited, cancelled, daysBefore, restarted)
            }
            #expect(daysBefore == 5, "the primary's days were committed before the check")
            waited.expectClean()
            #expect(waited.output.contains("2 upstreams agree"), "the check ran to its end before the exit: \(waited.output)")
            cancelled.expectClean()
            #expect(cancelled.took < .seconds(15), "the grace period bounds the stop")
            #expect(restarted.ready == 200)
            #expect(restarted.counts?["days"] as? Int == 5, "the days stored before the stops are served")
        }
    }

    @Test func sigtermDuringAHundredDocumentSyncCommitsTheDownloadsInFlight() async throws {
        try await withCrashScratch("larder-stop-sync", upstream: "upstream/docs") { root, cache in
            let hashes = try Self.writeDocuments(count: 100, into: root + "/upstream/docs")
            let (stopped, committed, downloading, restarted, listed, whole) = try await onThread {
                let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
                defer { upstream.signal(SIGKILL) }
                let upstreamPort = try upstream.waitForListening()
                // Every request is answered slowly, so the stop lands with downloads in flight.
                _ = try TestConnection.fetch(
                    port: upstreamPort, "PUT", "/_control/faults", body: Array(#"{"path":"*","delay_ms":400}"#.utf8))
                let arguments = [
                    "serve", "--port", "0", "--cache-dir", cache,
                    "--documents-url", "http://127.0.0.1:\(upstreamPort)/docs/index.json",
                ]
                let larder = try ChildProcess("larder", arguments)
                defer { larder.signal(SIGKILL) }
                let port = try larder.waitForListening()
                try #require(try waitUntil { try inFlight(upstreamPort) { $0.hasSuffix(".bin") } >= 8 },
                             "the sync's downloads never ran in parallel")
                // Read before the stop: what is committed, then what is downloading; each download in
                // flight ends within the grace period and is committed.
                let committed = try counts(port, "documents")?["mirrored"] as? Int ?? 0
                let downloading = try inFlight(upstreamPort) { $0.hasSuffix(".bin") }
                let stopped = try Stopped(larder, cache: cache)
                // The restart's sync waits 3 s for its index, so the count it starts with is the stop's.
                _ = try TestConnection.fetch(
                    port: upstreamPort, "PUT", "/_control/faults", body: Array(#"{"path":"*","delay_ms":3000,"times":1}"#.utf8))
                var listed: Int?
                var whole = 0
                let restarted = try Restarted(cache: cache, arguments: arguments) { port in
                    let counts = try counts(port, "documents")
                    listed = (try TestConnection.fetch(port: port, "/documents").json?["documents"] as? [[String: Any]])?.count
                    // The restart's sync completes the mirror (bounded): every document then served whole.
                    _ = try waitUntil(timeout: .seconds(30)) {
                        whole = try hashes.filter { name, sha in
                            let body = try TestConnection.fetch(port: port, "/documents/" + name)
                            return body.status == 200 && sha256(body.body) == sha
                        }.count
                        return whole == hashes.count
                    }
                    return counts
                }
                return (stopped, committed, downloading, restarted, listed, whole)
            }
            stopped.expectClean()
            #expect(restarted.ready == 200)
            let mirrored = restarted.counts?["mirrored"] as? Int ?? 0
            #expect(mirrored >= committed + downloading, "\(downloading) downloads in flight at the stop, \(committed) committed before")
            #expect(listed == 100, "the index committed before the stop is listed")
            #expect(whole == hashes.count)
        }
    }

    /// `count` documents of 64 KiB, each its own bytes, and their JSON index in `folder`; each name's sha256.
    static func writeDocuments(count: Int, into folder: String) throws -> [String: String] {
        var hashes: [String: String] = [:]
        var entries: [String] = []
        for index in 0..<count {
            let name = "doc\(index).bin"
            let bytes = (0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3) &+ index) }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
            let sha = sha256(bytes)
            hashes[name] = sha
            entries.append(#"{"name":"\#(name)","size":\#(bytes.count),"sha256":"\#(sha)","updated_at":"2026-11-01T00:00:00Z","created_at":"2026-11-01T00:00:00Z"}"#)
        }
        try (#"{"version":1,"documents":["# + entries.joined(separator: ",") + "]}")
            .write(toFile: folder + "/index.json", atomically: true, encoding: .utf8)
        return hashes
    }
}

/// A Larder stopped by SIGTERM: how it exited, what it wrote on standard error, how long it took,
/// and the store's `PRAGMA integrity_check` afterwards.
private struct Stopped: Sendable {
    let status: Int32?
    let output: String
    let took: Duration
    let integrity: String

    init(_ larder: ChildProcess, cache: String) throws {
        let stopping = ContinuousClock.now
        larder.signal(SIGTERM)
        // The server's drain (5 s) and the background work's grace period (4 s) bound the stop.
        status = larder.waitForExit(timeout: .seconds(20))
        took = ContinuousClock.now - stopping
        output = larder.standardError
        integrity = try Store(directory: cache, logger: quietLogger).integrityCheck()
    }

    /// Exit 0, no crash output, a whole store.
    func expectClean(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 0, "stderr: \(output)", sourceLocation: sourceLocation)
        for marker in GracefulStopTests.crashMarkers {
            #expect(!output.contains(marker), "stderr: \(output)", sourceLocation: sourceLocation)
        }
        #expect(integrity == "ok", sourceLocation: sourceLocation)
    }
}

/// The next start on the same directory: `/ready`'s status at once, then what `read` took, then stopped.
private struct Restarted: @unchecked Sendable {
    let ready: Int
    /// `/status`'s counts of the resource `read` looked at (JSON values: not Sendable, read once).
    let counts: [String: Any]?

    init(cache: String, arguments: [String], read: (_ port: Int) throws -> [String: Any]?) throws {
        let restarted = try ChildProcess("larder", arguments)
        defer {
            restarted.signal(SIGTERM)
            _ = restarted.waitForExit(timeout: .seconds(20))
        }
        let port = try restarted.waitForListening()
        ready = try TestConnection.fetch(port: port, "/ready").status
        counts = try read(port)
    }
}

/// `/status`'s counts of `resource` (`rates`, `documents`).
private func counts(_ port: Int, _ resource: String) throws -> [String: Any]? {
    let resources = try TestConnection.fetch(port: port, "/status").json?["resources"] as? [String: Any]
    return (resources?[resource] as? [String: Any])?["counts"] as? [String: Any]
}

/// How many requests the sample upstream is answering now for the paths `matching` takes.
private func inFlight(_ upstreamPort: Int, matching: (String) -> Bool) throws -> Int {
    let paths = try TestConnection.fetch(port: upstreamPort, "/_control/requests").json?["paths"] as? [String: [String: Any]] ?? [:]
    return paths.filter { matching($0.key) }.reduce(0) { $0 + ($1.value["in_flight"] as? Int ?? 0) }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passed (on a test's own thread); whether it held.
private func waitUntil(timeout: Duration = .seconds(15), _ condition: () throws -> Bool) throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return false
}

private func sha256(_ bytes: some Sequence<UInt8>) -> String {
    SHA256.hash(data: Array(bytes)).map { String(format: "%02x", $0) }.joined()
}
