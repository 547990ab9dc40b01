import Crypto
import Foundation
import LarderStore
import LarderTesting
import Testing

@Suite("Documents survive kill -9", .serialized)
struct DocumentsCrashTests {
    @Test func killedDuringSlowDownloadsEveryListedDocumentIsWhole() async throws {
        try await withCrashScratch("larder-docs-crash", upstream: "upstream/docs") { root, cache in
            let hashes = try await writeDocuments(version: 0, into: root + "/upstream/docs")
            let report = try await killRounds(cache: cache, root: root, expected: hashes, paths: ["/docs/index.json"]) { round in
                // Every document answers slowly and is cut short half the time, so kills land mid-download.
                round % 2 == 0 ? #"{"path":"*","delay_ms":150}"# : #"{"path":"*","delay_ms":100,"truncate_at":100000,"times":6}"#
            }
            #expect(report.problems.isEmpty, "\(report.problems)")
            #expect(report.integrity == "ok")
            #expect(report.leftovers.isEmpty, "temporary files are cleaned at start and after failed downloads")
        }
    }

    @Test func killedDuringFallbackDownloadsTheMirrorRestartsAndServesEveryDocument() async throws {
        try await withCrashScratch("larder-docs-fallback-crash", upstream: "upstream/mirror") { root, cache in
            // The primary lists the documents but holds none of them (404): every one comes from the
            // secondary, at the same relative path, slowly, so kills land mid-fallback. Each round
            // publishes new bytes for every document, so each round downloads them all again.
            let hashes = try await writeDocuments(version: 0, into: root + "/upstream/mirror")
            try FileManager.default.createDirectory(atPath: root + "/upstream/docs", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: root + "/upstream/mirror/index.json", toPath: root + "/upstream/docs/index.json")
            let report = try await killRounds(
                cache: cache, root: root, expected: hashes, paths: ["/docs/index.json", "/mirror/index.json"],
                killAfter: 0...100_000, watched: "/mirror/", killWhenWatched: true,
                publish: { round in
                    let version = DocumentVersion(round)
                    return version.files.map { ("/mirror/" + $0.name, $0.bytes) }
                        + [("/docs/index.json", Array(version.index.utf8)), ("/mirror/index.json", Array(version.index.utf8))]
                }
            ) { round in
                // Each request (index, the primary's 404, the mirror's bytes) takes 200 ms or more, so the
                // fallbacks are in flight from about 400 ms; half the rounds the mirror's bytes are cut short too.
                round % 2 == 0 ? #"{"path":"*","delay_ms":250}"# : #"{"path":"*","delay_ms":200,"truncate_at":100000}"#
            }
            #expect(report.problems.isEmpty, "\(report.problems)")
            #expect(report.integrity == "ok")
            #expect(report.leftovers.isEmpty, "temporary files are cleaned at start and after failed downloads")
            #expect(report.servedAtEnd == hashes.count, "after the last restart's sync every document is served, as last published")
            #expect(report.killedMidRequest == crashRounds(default: 4), "every kill landed while a fallback download was in flight")
        }
    }
}

/// Twelve documents of 256 KiB, each its own bytes (other bytes for another `version`), and their index.
private struct DocumentVersion: Sendable {
    var files: [(name: String, bytes: [UInt8])] = []
    var hashes: [String: String] = [:]
    var index = ""

    init(_ version: Int) {
        var entries: [String] = []
        for index in 0..<12 {
            let name = "doc\(index).bin"
            let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* (index + 7) &+ index &+ version &* 31) }
            let sha = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            files.append((name, bytes))
            hashes[name] = sha
            let updated = String(format: "2026-11-01T00:%02d:00Z", version % 60)
            entries.append(#"{"name":"\#(name)","size":\#(bytes.count),"sha256":"\#(sha)","updated_at":"\#(updated)","created_at":"2026-11-01T00:00:00Z"}"#)
        }
        index = #"{"version":1,"documents":["# + entries.joined(separator: ",") + "]}"
    }
}

/// Writes a version of the documents and their index into `folder` (on a thread of its own,
/// `onThread`); returns each name's sha256.
private func writeDocuments(version: Int, into folder: String) async throws -> [String: String] {
    try await onThread { () -> [String: String] in
        let documents = DocumentVersion(version)
        for file in documents.files {
            try Data(file.bytes).write(to: URL(fileURLWithPath: folder + "/" + file.name))
        }
        try documents.index.write(toFile: folder + "/index.json", atomically: true, encoding: .utf8)
        return documents.hashes
    }
}

/// What the kill rounds left: documents served but not whole, the store's integrity check,
/// temporary files left behind, and how many documents the last restart served whole after its sync.
private struct CrashReport: Sendable {
    var problems: [String] = []
    var integrity = ""
    var leftovers: [String] = []
    var servedAtEnd = 0
    /// Rounds whose kill landed while the upstream held a request for a path under `watched`.
    var killedMidRequest = 0
}

/// Rounds of: `publish(round)`'s files put on one sample upstream, Larder started on its `paths`
/// with `fault(round)` in force, killed (-9) at a random moment (with `killWhenWatched`, the first
/// moment after it that the upstream holds a download under `watched`), restarted without faults,
/// and every document it lists checked whole.
private func killRounds(
    cache: String, root: String, expected: [String: String], paths: [String], killAfter: ClosedRange<UInt32> = 50_000...400_000,
    watched: String = "/docs/", killWhenWatched: Bool = false, publish: @escaping @Sendable (Int) -> [(path: String, bytes: [UInt8])] = { _ in [] },
    fault: @escaping @Sendable (Int) -> String
) async throws -> CrashReport {
    try await onThread { () -> CrashReport in
        let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
        defer { upstream.signal(SIGKILL) }
        let upstreamPort = try upstream.waitForListening()
        let arguments = ["serve", "--port", "0", "--cache-dir", cache]
            + paths.flatMap { ["--documents-url", "http://127.0.0.1:\(upstreamPort)\($0)"] }
        var report = CrashReport()
        // Every version published is whole; the last one is what a finished sync serves.
        var whole = expected.mapValues { Set([$0]) }
        var latest = expected
        /// Every document `port` lists that it serves with other bytes than the index's.
        func check(_ port: Int, _ round: Int) throws -> Int {
            var current = 0
            let listing = try TestConnection.fetch(port: port, "/documents")
            for entry in listing.json?["documents"] as? [[String: Any]] ?? [] {
                guard let name = entry["name"] as? String else { continue }
                let body = try TestConnection.fetch(port: port, "/documents/" + name)
                let sha = SHA256.hash(data: body.body).map { String(format: "%02x", $0) }.joined()
                if body.status == 200, whole[name]?.contains(sha) != true { report.problems.append("round \(round): \(name) is not whole") }
                if body.status == 200, sha == latest[name] { current += 1 }
            }
            return current
        }
        let rounds = crashRounds(default: 4)
        for round in 1...rounds {
            for file in publish(round) {
                _ = try TestConnection.fetch(port: upstreamPort, "PUT", "/_control/files" + file.path, body: file.bytes)
                if file.path.hasSuffix(".bin") {
                    let name = String(file.path.split(separator: "/").last ?? "")
                    latest[name] = SHA256.hash(data: file.bytes).map { String(format: "%02x", $0) }.joined()
                    whole[name, default: []].insert(latest[name]!)
                }
            }
            _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/faults")
            _ = try TestConnection.fetch(port: upstreamPort, "PUT", "/_control/faults", body: Array(fault(round).utf8))
            let larder = try ChildProcess("larder", arguments)
            _ = try larder.waitForListening()
            usleep(UInt32.random(in: killAfter))
            // With `killWhenWatched`, the kill waits (bounded) until the upstream holds a watched download.
            let patience = ContinuousClock.now + .seconds(killWhenWatched ? 5 : 0)
            var holding = false
            repeat {
                let held = try TestConnection.fetch(port: upstreamPort, "/_control/requests").json?["paths"] as? [String: [String: Any]] ?? [:]
                holding = held.contains { $0.key.hasPrefix(watched) && $0.key.hasSuffix(".bin") && ($0.value["in_flight"] as? Int ?? 0) > 0 }
                if !holding, killWhenWatched { usleep(5_000) }
            } while !holding && ContinuousClock.now < patience
            larder.signal(SIGKILL)
            if holding { report.killedMidRequest += 1 }
            _ = larder.waitForExit(timeout: .seconds(5))
            // Restarted without faults: whatever it lists must be whole, before and after its sync.
            _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/faults")
            let restarted = try ChildProcess("larder", arguments)
            let port = try restarted.waitForListening()
            _ = try check(port, round)
            if round == rounds {
                // The last restart syncs to the end (bounded): every document is then served whole.
                let deadline = ContinuousClock.now + .seconds(20)
                repeat {
                    report.servedAtEnd = try check(port, round)
                    if report.servedAtEnd == latest.count { break }
                    usleep(100_000)
                } while ContinuousClock.now < deadline
            }
            restarted.signal(SIGTERM)
            _ = restarted.waitForExit(timeout: .seconds(10))
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/documents")) ?? []
        let store = try Store(directory: cache, logger: quietLogger)
        report.integrity = try store.integrityCheck()
        report.leftovers = leftovers.filter { $0.hasSuffix(".larder-partial") }
        return report
    }
}
