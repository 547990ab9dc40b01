import Foundation
import LarderStore
import LarderTesting
import Testing

/// An ECB document of `days` consecutive days whose every rate carries `version` in its last digits,
/// so a mix of two refreshes shows as two versions in one answer.
func history(version: Int, days: Int) -> String {
    var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
        <Cube>

        """
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let codes: [String] = (0..<30).map { index in String([letters[index / 26], letters[index % 26], "X"]) }
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    for day in (0..<days).reversed() {
        xml += "<Cube time='\(formatter.string(from: start.addingTimeInterval(Double(day) * 86_400)))'>\n"
        for (index, code) in codes.enumerated() {
            xml += "<Cube currency='\(code)' rate='\(index + 1).\(String(format: "%04d", version))'/>\n"
        }
        xml += "</Cube>\n"
    }
    return xml + "</Cube>\n</gesmes:Envelope>\n"
}

/// Kill rounds: a few in `make test`, `LARDER_CRASH_ROUNDS` (20 or more) in `make soak`.
func crashRounds(default rounds: Int) -> Int {
    ProcessInfo.processInfo.environment["LARDER_CRASH_ROUNDS"].flatMap(Int.init) ?? rounds
}

/// The versions the rates of a `/rates` body carry (one, unless a refresh was torn).
private func versions(in body: [String: Any]?) -> Set<String> {
    let rates = body?["rates"] as? [String: Any] ?? [:]
    return Set(rates.values.map { "\($0)".split(separator: ".").last.map(String.init) ?? "?" })
}

@Suite("Rates survive kill -9", .serialized)
struct RatesCrashTests {
    @Test func killedDuringRefreshesARestartServesAWholeSet() async throws {
        try await withCrashScratch("larder-crash", upstream: "upstream") { root, cache in
            try history(version: 0, days: 5).write(toFile: root + "/upstream/feed.xml", atomically: true, encoding: .utf8)

            let report = try await onThread { () -> (rounds: Int, torn: [String], integrity: String, days: Int) in
                let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
                defer { upstream.signal(SIGKILL) }
                let upstreamPort = try upstream.waitForListening()
                let arguments = [
                    "serve", "--port", "0", "--cache-dir", cache,
                    "--rates-url", "http://127.0.0.1:\(upstreamPort)/feed.xml", "--rates-ttl", "1h",
                ]
                var torn: [String] = []
                var rounds = 0
                for round in 1...crashRounds(default: 6) {
                    // A big multi-day payload of a new version, so each refresh writes many rows.
                    let payload = Array(history(version: round, days: 400).utf8)
                    _ = try TestConnection.fetch(port: upstreamPort, "PUT", "/_control/files/feed.xml", body: payload)
                    // The start-up sync is running now; a forced refresh joins it. Kill at a moment in its window.
                    if let problem = try killAndRestart(arguments, killAfter: 0...150_000) {
                        torn.append("round \(round): \(problem)")
                    }
                    rounds += 1
                }
                let store = try Store(directory: cache, logger: quietLogger)
                return (rounds, torn, try store.integrityCheck(), try store.rateSetCount())
            }
            #expect(report.rounds == crashRounds(default: 6))
            #expect(report.torn.isEmpty, "\(report.torn)")
            #expect(report.integrity == "ok")
            #expect(report.days >= 5)
        }
    }
}

/// Starts `larder` with `arguments`, kills it with SIGKILL after a random pause (µs) in `killAfter`,
/// starts it again on the same cache and reads `/rates`: nil when that serves one whole version, else
/// what it served instead.
func killAndRestart(_ arguments: [String], killAfter: ClosedRange<UInt32>) throws -> String? {
    let larder = try ChildProcess("larder", arguments)
    _ = try larder.waitForListening()
    usleep(UInt32.random(in: killAfter))
    larder.signal(SIGKILL)
    _ = larder.waitForExit(timeout: .seconds(5))
    let restarted = try ChildProcess("larder", arguments)
    defer {
        restarted.signal(SIGKILL)
        _ = restarted.waitForExit(timeout: .seconds(5))
    }
    let answer = try TestConnection.fetch(port: try restarted.waitForListening(), "/rates")
    guard answer.status == 200 else { return "status \(answer.status)" }
    let seen = versions(in: answer.json)
    return seen.count == 1 ? nil : "versions \(seen.sorted())"
}

/// A crash test's scratch folder, removed on every exit path: `root/<folder>` made for the sample
/// upstream's files, and the path Larder's cache goes to.
func withCrashScratch(
    _ label: String, upstream folder: String, _ body: (_ root: String, _ cache: String) async throws -> Void
) async throws {
    try await withTemporaryDirectory(label) { root in
        try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        try await body(root, root + "/cache")
    }
}
