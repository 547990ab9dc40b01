import Crypto
import Foundation
import LarderStore
import LarderTesting
import Testing

@Suite("Documents survive kill -9", .serialized)
struct DocumentsCrashTests {
    @Test func killedDuringSlowDownloadsEveryListedDocumentIsWhole() async throws {
        try await withCrashScratch("larder-docs-crash", upstream: "upstream/docs") { root, cache in
            let hashes = try await writeDocuments(into: root + "/upstream/docs")
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
            // secondary, at the same relative path, slowly, so kills land mid-fallback.
            let hashes = try await writeDocuments(into: root + "/upstream/mirror")
            try FileManager.default.createDirectory(atPath: root + "/upstream/docs", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: root + "/upstream/mirror/index.json", toPath: root + "/upstream/docs/index.json")
            let report = try await killRounds(
                cache: cache, root: root, expected: hashes, paths: ["/docs/index.json", "/mirror/index.json"]
            ) { round in
                round % 2 == 0 ? #"{"path":"*","delay_ms":150}"# : #"{"path":"*","delay_ms":100,"truncate_at":100000,"times":8}"#
            }
            #expect(report.problems.isEmpty, "\(report.problems)")
            #expect(report.integrity == "ok")
            #expect(report.leftovers.isEmpty, "temporary files are cleaned at start and after failed downloads")
            #expect(report.servedAtEnd == hashes.count, "after the last restart's sync every document is served")
        }
    }
}

/// Twelve documents of 256 KiB, each its own bytes, and their index, written into `folder` (on a
/// thread of its own, `onThread`); returns each name's sha256.
private func writeDocuments(into folder: String) async throws -> [String: String] {
    try await onThread { () -> [String: String] in
        var entries: [String] = []
        var hashes: [String: String] = [:]
        for index in 0..<12 {
            let name = "doc\(index).bin"
            let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* (index + 7) &+ index) }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
            let sha = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            hashes[name] = sha
            entries.append(#"{"name":"\#(name)","size":\#(bytes.count),"sha256":"\#(sha)","updated_at":"2026-11-01T00:00:00Z","created_at":"2026-11-01T00:00:00Z"}"#)
        }
        let index = #"{"version":1,"documents":["# + entries.joined(separator: ",") + "]}"
        try index.write(toFile: folder + "/index.json", atomically: true, encoding: .utf8)
        return hashes
    }
}

/// What the kill rounds left: documents served but not whole, the store's integrity check,
/// temporary files left behind, and how many documents the last restart served whole after its sync.
private struct CrashReport: Sendable {
    var problems: [String] = []
    var integrity = ""
    var leftovers: [String] = []
    var servedAtEnd = 0
}

/// Rounds of: Larder started on the upstreams at `paths` of one sample upstream with `fault(round)`
/// in force, killed (-9) at a random moment, restarted without faults, and every document it lists
/// checked whole.
private func killRounds(
    cache: String, root: String, expected: [String: String], paths: [String], fault: @escaping @Sendable (Int) -> String
) async throws -> CrashReport {
    try await onThread { () -> CrashReport in
        let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
        defer { upstream.signal(SIGKILL) }
        let upstreamPort = try upstream.waitForListening()
        let arguments = ["serve", "--port", "0", "--cache-dir", cache]
            + paths.flatMap { ["--documents-url", "http://127.0.0.1:\(upstreamPort)\($0)"] }
        var report = CrashReport()
        /// Every document `port` lists that it serves with other bytes than the index's.
        func check(_ port: Int, _ round: Int) throws -> Int {
            var whole = 0
            let listing = try TestConnection.fetch(port: port, "/documents")
            for entry in listing.json?["documents"] as? [[String: Any]] ?? [] {
                guard let name = entry["name"] as? String else { continue }
                let body = try TestConnection.fetch(port: port, "/documents/" + name)
                let sha = SHA256.hash(data: body.body).map { String(format: "%02x", $0) }.joined()
                if body.status == 200, sha != expected[name] { report.problems.append("round \(round): \(name) is not whole") }
                if body.status == 200, sha == expected[name] { whole += 1 }
            }
            return whole
        }
        let rounds = crashRounds(default: 4)
        for round in 1...rounds {
            _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/faults")
            _ = try TestConnection.fetch(port: upstreamPort, "PUT", "/_control/faults", body: Array(fault(round).utf8))
            let larder = try ChildProcess("larder", arguments)
            _ = try larder.waitForListening()
            usleep(UInt32.random(in: 50_000...400_000))
            larder.signal(SIGKILL)
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
                    if report.servedAtEnd == expected.count { break }
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
