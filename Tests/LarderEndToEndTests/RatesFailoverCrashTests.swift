import Foundation
import LarderStore
import LarderTesting
import Testing

@Suite("Rates survive kill -9 in the middle of a failover", .serialized)
struct RatesFailoverCrashTests {
    /// The primary answers 503 every round, so each sync fails over to the secondary, which serves a
    /// new 400-day version (every other round after a pause, so some kills land right after the
    /// primary failed and before the secondary's body arrived). A restart must serve one whole version
    /// from a store that checks.
    @Test func killedDuringAFailoverARestartServesAWholeSet() async throws {
        try await withCrashScratch("larder-failover-crash", upstream: "upstream") { root, cache in
            try history(version: 0, days: 5).write(toFile: root + "/upstream/primary.xml", atomically: true, encoding: .utf8)
            try history(version: 0, days: 5).write(toFile: root + "/upstream/secondary.xml", atomically: true, encoding: .utf8)

            let report = try await onThread { () -> (rounds: Int, torn: [String], integrity: String, days: Int, primary: Int) in
                let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
                defer { upstream.signal(SIGKILL) }
                let upstreamPort = try upstream.waitForListening()
                let control = { (method: String, target: String, body: String) in
                    _ = try TestConnection.fetch(port: upstreamPort, method, target, body: Array(body.utf8))
                }
                let arguments = [
                    "serve", "--port", "0", "--cache-dir", cache, "--rates-ttl", "1h",
                    "--rates-url", "http://127.0.0.1:\(upstreamPort)/primary.xml",
                    "--rates-url", "http://127.0.0.1:\(upstreamPort)/secondary.xml",
                ]
                var torn: [String] = []
                var rounds = 0
                for round in 1...crashRounds(default: 6) {
                    try control("DELETE", "/_control/faults", "")
                    try control("PUT", "/_control/faults", #"{"path":"/primary.xml","status":503}"#)
                    if round % 2 == 0 {
                        try control("PUT", "/_control/faults", #"{"path":"/secondary.xml","delay_ms":150,"times":1}"#)
                    }
                    let payload = Array(history(version: round, days: 400).utf8)
                    _ = try TestConnection.fetch(port: upstreamPort, "PUT", "/_control/files/secondary.xml", body: payload)
                    // The start-up sync is failing over now: kill at a moment in its window.
                    if let problem = try killAndRestart(arguments, killAfter: 0...250_000) {
                        torn.append("round \(round): \(problem)")
                    }
                    rounds += 1
                }
                let requests = try TestConnection.fetch(port: upstreamPort, "/_control/requests").json
                let paths = requests?["paths"] as? [String: [String: Any]] ?? [:]
                let store = try Store(directory: cache, logger: quietLogger)
                return (
                    rounds, torn, try store.integrityCheck(), try store.rateSetCount(),
                    paths["/primary.xml"]?["requests"] as? Int ?? 0)
            }
            #expect(report.rounds == crashRounds(default: 6))
            #expect(report.torn.isEmpty, "\(report.torn)")
            #expect(report.integrity == "ok")
            #expect(report.days >= 5)
            // The primary was asked (and failed) on the way to the secondary.
            #expect(report.primary >= 1)
        }
    }
}
