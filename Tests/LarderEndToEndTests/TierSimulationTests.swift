import Crypto
import Foundation
import LarderTesting
import Synchronization
import Testing

/// Many Larders, one poller (SPEC §4.14, issue 39): the sample upstream, 2 primaries polling it and 8 replicas
/// mirroring the primaries (`;format=frankfurter`, the origin last as `;fallback`, `--rates-schedule follow`),
/// all real processes on loopback; the documents the same way (`--documents-schedule follow`). Publications,
/// each with a changed document, and primary-a killed with SIGKILL while it polls for the first: every replica
/// serves each new day and document, none ever an older day than it served, the origin sees no replica, and
/// every answer's ETag is the surviving primary's. `make soak` runs 20 publications (`LARDER_TIER_PUBLICATIONS`).
@Suite("Many Larders, one poller: 2 primaries and 8 replicas as processes", .serialized)
struct TierSimulationTests {
    static let replicaCount = 8
    static let queries = ["/rates", "/v1/latest", "/v2/rates", "/v2/providers", "/documents", "/documents/notes.txt"]
    static var publications: Int {
        ProcessInfo.processInfo.environment["LARDER_TIER_PUBLICATIONS"].flatMap(Int.init).map { min(max($0, 1), 60) } ?? 2
    }

    @Test func publicationsReachEveryReplicaThroughThePrimariesAlone() async throws {
        let publications = Self.publications
        let report = try await onThread { try simulate(publications: publications) }
        let sorted = report.delays.sorted()
        if !sorted.isEmpty {
            print(String(
                format: "tier simulation: %d publication(s), %d replicas: propagation after the surviving primary median %.2f s, worst %.2f s",
                publications, Self.replicaCount, sorted[sorted.count / 2], sorted.last ?? 0))
        }
        #expect(report.missing.isEmpty, "publications some replica never served: \(report.missing)")
        #expect(report.staleDocuments.isEmpty, "replicas still serving an old document: \(report.staleDocuments)")
        #expect(report.delays.count == Self.replicaCount * publications)
        // The target (5 s) is a bench figure; here a bound a loaded CI machine keeps.
        #expect((sorted.last ?? 99) < 30, "\(report.delays)")
        #expect(report.regressions.isEmpty, "\(report.regressions)")
        #expect(report.originRequests == 0, "the origin (;fallback) asked by a replica while a primary answered")
        #expect(report.primaryPolls >= publications, "primary-b polled the upstream for each new day")
        for (query, tags) in report.etags.sorted(by: { $0.key < $1.key }) {
            #expect(tags.count == 1 && tags.first != "", "\(query): one ETag across primary-b and the replicas, not \(tags)")
        }
    }
}

private struct Report: Sendable {
    var delays: [Double] = []
    var missing: [String] = []
    var regressions: [String] = []
    var staleDocuments: [String] = []
    var originRequests = -1
    var primaryPolls = 0
    var etags: [String: Set<String>] = [:]
}

/// Each watched server's newest `/rates` day seen, when it first saw each day, and any step back.
private final class Watch: Sendable {
    struct State {
        var newest: [Int: String] = [:]
        /// "port day" → the first sample that showed that day (or a later one).
        var firstSeen: [String: ContinuousClock.Instant] = [:]
        var regressions: [String] = []
    }
    let state = Mutex(State())
    let stop = Atomic(false)

    func observe(_ port: Int, day: String, days: [String]) {
        state.withLock { state in
            if let newest = state.newest[port], day < newest { state.regressions.append("\(port): \(day) after \(newest)") }
            state.newest[port] = max(state.newest[port] ?? day, day)
            for target in days where day >= target && state.firstSeen["\(port) \(target)"] == nil {
                state.firstSeen["\(port) \(target)"] = .now
            }
        }
    }

    func firstSeen(_ port: Int, _ day: String) -> ContinuousClock.Instant? {
        state.withLock { $0.firstSeen["\(port) \(day)"] }
    }
}

private func day(_ offset: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date().addingTimeInterval(TimeInterval(offset * 86_400)))
}

/// A documents index of one document, `notes.txt`, holding `text`, updated at `updated`.
private func index(_ text: String, updated: String) -> String {
    let digest = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    return #"{"version":1,"generated_at":"\#(updated)","documents":[{"name":"notes.txt","url":"notes.txt","size":\#(text.utf8.count),"sha256":"\#(digest)","content_type":"text/plain","created_at":"2026-10-01T09:00:00Z","updated_at":"\#(updated)"}]}"#
}

/// Requests the upstream answered on the origin's paths, the replicas' fallbacks.
private func originRequests(_ upstreamPort: Int) throws -> Int {
    let requests = try TestConnection.fetch(port: upstreamPort, "/_control/requests").json?["paths"] as? [String: [String: Any]] ?? [:]
    return ["/rates/origin.xml", "/docs-origin/index.json", "/docs-origin/notes.txt"].reduce(0) { $0 + (requests[$1]?["requests"] as? Int ?? 0) }
}

private func ratesDay(_ port: Int) -> String? {
    (try? TestConnection.fetch(port: port, "/rates"))?.json?["date"] as? String
}

/// The ECB feed of `days` (ascending), newest first, each with its own USD.
private func feed(_ days: [String]) -> String {
    ECB.document(days.enumerated().reversed().map { index, day in
        (day, [("USD", String(format: "1.%04d", 800 + index)), ("JPY", "161.30"), ("HUF", "385.50")])
    })
}

private func note(_ version: Int) -> String { "Version \(version) of the notes.\n" }

private func simulate(publications: Int) throws -> Report {
    try withTemporaryDirectory("larder-tier") { root in
        let days = (0...publications).map { day($0 - publications - 1) }
        try FileManager.default.createDirectory(atPath: root + "/upstream/rates", withIntermediateDirectories: true)
        // The replicas' fallback is the same origin under other paths, so its request log tells them apart.
        for folder in ["docs", "docs-origin"] {
            try FileManager.default.createDirectory(atPath: root + "/upstream/" + folder, withIntermediateDirectories: true)
            try note(0).write(toFile: root + "/upstream/\(folder)/notes.txt", atomically: true, encoding: .utf8)
            try index(note(0), updated: "2026-11-01T09:00:00Z")
                .write(toFile: root + "/upstream/\(folder)/index.json", atomically: true, encoding: .utf8)
        }
        for name in ["feed.xml", "origin.xml"] {
            try feed([days[0]]).write(toFile: root + "/upstream/rates/" + name, atomically: true, encoding: .utf8)
        }
        let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
        defer { upstream.signal(SIGKILL) }
        let upstreamPort = try upstream.waitForListening()

        let primaries = try (0..<2).map { index in
            try ChildProcess("larder", [
                "serve", "--port", "0", "--cache-dir", root + "/primary-\(index)", "--log-level", "warning",
                "--rates-url", "http://127.0.0.1:\(upstreamPort)/rates/feed.xml", "--rates-schedule", "ttl", "--rates-ttl", "2s",
                "--documents-url", "http://127.0.0.1:\(upstreamPort)/docs/index.json", "--documents-ttl", "2s",
            ])
        }
        defer { primaries.forEach { $0.signal(SIGKILL) } }
        let primaryPorts = try primaries.map { try $0.waitForListening() }
        for port in primaryPorts {
            guard try eventuallyBlocking(timeout: .seconds(60), every: .milliseconds(50), { ratesDay(port) == days[0] }) else {
                throw TestConnectionError("primary on \(port) never served \(days[0])")
            }
        }
        let replicas = try (0..<TierSimulationTests.replicaCount).map { index in
            try ChildProcess("larder", [
                "serve", "--port", "0", "--cache-dir", root + "/replica-\(index)", "--log-level", "warning",
                "--rates-url", "http://127.0.0.1:\(primaryPorts[0])/;format=frankfurter",
                "--rates-url", "http://127.0.0.1:\(primaryPorts[1])/;format=frankfurter",
                "--rates-url", "http://127.0.0.1:\(upstreamPort)/rates/origin.xml;fallback",
                "--rates-schedule", "follow",
                "--documents-url", "http://127.0.0.1:\(primaryPorts[0])/documents",
                "--documents-url", "http://127.0.0.1:\(primaryPorts[1])/documents",
                "--documents-url", "http://127.0.0.1:\(upstreamPort)/docs-origin/index.json;fallback",
                "--documents-schedule", "follow",
            ])
        }
        defer { replicas.forEach { $0.signal(SIGKILL) } }
        let replicaPorts = try replicas.map { try $0.waitForListening() }
        for port in replicaPorts {
            guard try eventuallyBlocking(timeout: .seconds(120), every: .milliseconds(50), {
                ratesDay(port) == days[0] && (try? TestConnection.fetch(port: port, "/documents/notes.txt"))?.text == note(0)
            }) else {
                throw TestConnectionError("replica on \(port) never served \(days[0]) and the first notes")
            }
        }
        // The replicas' start-up syncs counted too; from here on the primaries' polls are counted afresh.
        let atStart = try originRequests(upstreamPort)
        _ = try TestConnection.fetch(port: upstreamPort, "DELETE", "/_control/requests")

        // Every server sampled every 100 ms from here on.
        let watch = Watch()
        let watched = primaryPorts + replicaPorts
        let poller = Thread {
            while !watch.stop.load(ordering: .relaxed) {
                for port in watched {
                    if let seen = ratesDay(port) { watch.observe(port, day: seen, days: days) }
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        poller.start()
        defer { watch.stop.store(true, ordering: .relaxed) }

        var report = Report()
        let survivors = [primaryPorts[1]] + replicaPorts
        for round in 1...publications {
            for name in ["feed.xml", "origin.xml"] {
                _ = try TestConnection.fetch(
                    port: upstreamPort, "PUT", "/_control/files/rates/" + name, body: Array(feed(Array(days[0...round])).utf8))
            }
            for folder in ["docs", "docs-origin"] {
                _ = try TestConnection.fetch(port: upstreamPort, "PUT", "/_control/files/\(folder)/notes.txt", body: Array(note(round).utf8))
                _ = try TestConnection.fetch(
                    port: upstreamPort, "PUT", "/_control/files/\(folder)/index.json",
                    body: Array(index(note(round), updated: "2026-11-02T09:00:\(String(format: "%02d", round))Z").utf8))
            }
            if round == 1 {
                // Primary-a killed within its next poll's window (a 2 s TTL polls every 1.8 s).
                usleep(UInt32.random(in: 0...1_800_000))
                primaries[0].signal(SIGKILL)
                _ = primaries[0].waitForExit(timeout: .seconds(5))
            }
            let day = days[round]
            let everywhere = try eventuallyBlocking(timeout: .seconds(60), every: .milliseconds(100)) {
                survivors.allSatisfy { watch.firstSeen($0, day) != nil }
            }
            let documents = try eventuallyBlocking(timeout: .seconds(60), every: .milliseconds(100)) {
                replicaPorts.allSatisfy { (try? TestConnection.fetch(port: $0, "/documents/notes.txt"))?.text == note(round) }
            }
            if everywhere, let primary = watch.firstSeen(primaryPorts[1], day) {
                report.delays += replicaPorts.compactMap { watch.firstSeen($0, day) }.map { instant in
                    let delay = instant - primary
                    return max(0, Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
                }
            }
            report.missing += survivors.filter { watch.firstSeen($0, day) == nil }.map { "\($0) \(day)" }
            if !documents {
                report.staleDocuments += replicaPorts
                    .filter { (try? TestConnection.fetch(port: $0, "/documents/notes.txt"))?.text != note(round) }.map { "\($0) v\(round)" }
            }
        }
        // A last round of samples after the changes, for regressions.
        Thread.sleep(forTimeInterval: 0.3)
        watch.stop.store(true, ordering: .relaxed)

        report.regressions = watch.state.withLock { $0.regressions }
        let requests = try TestConnection.fetch(port: upstreamPort, "/_control/requests").json?["paths"] as? [String: [String: Any]] ?? [:]
        report.originRequests = atStart + (try originRequests(upstreamPort))
        report.primaryPolls = requests["/rates/feed.xml"]?["requests"] as? Int ?? 0
        for query in TierSimulationTests.queries {
            report.etags[query] = Set(survivors.map { port in (try? TestConnection.fetch(port: port, query))?.header("ETag") ?? "" })
        }
        return report
    }
}
