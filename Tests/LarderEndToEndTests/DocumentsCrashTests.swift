import Crypto
import Foundation
import LarderStore
import LarderTesting
import Testing

@Suite("Documents survive kill -9", .serialized)
struct DocumentsCrashTests {
    @Test func killedDuringSlowDownloadsEveryListedDocumentIsWhole() async throws {
        try await withCrashScratch("larder-docs-crash", upstream: "upstream/docs") { root, cache in
            // Twelve documents of 256 KiB, each its own bytes; made on a thread of its own (`onThread`).
            let (entries, hashes) = try await onThread { () -> ([String], [String: String]) in
                var entries: [String] = []
                var hashes: [String: String] = [:]
                for index in 0..<12 {
                    let name = "doc\(index).bin"
                    let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* (index + 7) &+ index) }
                    try Data(bytes).write(to: URL(fileURLWithPath: root + "/upstream/docs/" + name))
                    let sha = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
                    hashes[name] = sha
                    entries.append(#"{"name":"\#(name)","size":\#(bytes.count),"sha256":"\#(sha)","updated_at":"2026-11-01T00:00:00Z","created_at":"2026-11-01T00:00:00Z"}"#)
                }
                return (entries, hashes)
            }
            let index = #"{"version":1,"documents":["# + entries.joined(separator: ",") + "]}"
            try index.write(toFile: root + "/upstream/docs/index.json", atomically: true, encoding: .utf8)

            let expected = hashes
            let report = try await onThread { () -> (problems: [String], integrity: String, leftovers: [String]) in
                let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
                defer { upstream.signal(SIGKILL) }
                let upstreamPort = try upstream.waitForListening()
                let arguments = ["serve", "--port", "0", "--cache-dir", cache,
                                 "--documents-url", "http://127.0.0.1:\(upstreamPort)/docs/index.json"]
                var problems: [String] = []
                for round in 1...crashRounds(default: 4) {
                    // Every document answers slowly and is cut short half the time, so kills land mid-download.
                    _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/faults")
                    let fault = round % 2 == 0 ? #"{"path":"*","delay_ms":150}"# : #"{"path":"*","delay_ms":100,"truncate_at":100000,"times":6}"#
                    _ = try TestConnection.fetch(port: upstreamPort, "PUT", "/_control/faults", body: Array(fault.utf8))
                    let larder = try ChildProcess("larder", arguments)
                    _ = try larder.waitForListening()
                    usleep(UInt32.random(in: 50_000...400_000))
                    larder.signal(SIGKILL)
                    _ = larder.waitForExit(timeout: .seconds(5))
                    // Restarted without faults: whatever it lists must be whole, before and after its sync.
                    _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/faults")
                    let restarted = try ChildProcess("larder", arguments)
                    let port = try restarted.waitForListening()
                    let listing = try TestConnection.fetch(port: port, "/documents")
                    for entry in listing.json?["documents"] as? [[String: Any]] ?? [] {
                        guard let name = entry["name"] as? String else { continue }
                        let body = try TestConnection.fetch(port: port, "/documents/" + name)
                        let sha = SHA256.hash(data: body.body).map { String(format: "%02x", $0) }.joined()
                        if body.status == 200, sha != expected[name] { problems.append("round \(round): \(name) is not whole") }
                    }
                    restarted.signal(SIGTERM)
                    _ = restarted.waitForExit(timeout: .seconds(10))
                }
                let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/documents")) ?? []
                let store = try Store(directory: cache, logger: quietLogger)
                return (problems, try store.integrityCheck(), leftovers.filter { $0.hasSuffix(".larder-partial") })
            }
            #expect(report.problems.isEmpty, "\(report.problems)")
            #expect(report.integrity == "ok")
            #expect(report.leftovers.isEmpty, "temporary files are cleaned at start and after failed downloads")
        }
    }
}
