import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderHTTP
import LarderTesting
import LarderUpstream
import Logging
import SampleUpstream

let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// A sample upstream and a Larder on loopback, with a clock the test moves.
final class RatesHarness: @unchecked Sendable {
    static let feedPath = "/rates/feed.xml"

    let upstream: SampleUpstream
    let clock: ManualClock
    let cacheDirectory = NSTemporaryDirectory() + "larder-rates-\(UUID().uuidString)"
    var configuration: Configuration
    private(set) var app: LarderApplication?
    private var scheduler: Task<Void, Never>?

    /// Serves `feed` (an ECB document) at `feedPath`; Larder is not started yet.
    init(
        feed: String = ECB.document([("2026-11-20", ECB.rates)]), ttl: Duration = .seconds(100),
        now: Date = Date(timeIntervalSince1970: 1_790_000_000)
    ) async throws {
        clock = ManualClock(now: now)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.port = 0
        serverConfiguration.threads = 4
        serverConfiguration.drainTimeout = .milliseconds(200)
        upstream = try SampleUpstream(
            root: ChildProcess.examplesUpstream, configuration: serverConfiguration, logger: quietLogger)
        try upstream.server.start()
        configuration = Configuration()
        configuration.port = 0
        configuration.threads = 4
        configuration.cacheDirectory = cacheDirectory
        configuration.ratesTTL = ttl
        // The TTL rules are what these tests check; the ECB calendar has its own (ScheduleTests).
        configuration.ratesSchedule = .ttl
        configuration.rates = UpstreamResource(url: upstreamURL(Self.feedPath), format: .auto)
        try await setFile(Self.feedPath, feed)
    }

    var upstreamPort: Int { upstream.server.port }

    func upstreamURL(_ path: String) -> String { "http://127.0.0.1:\(upstreamPort)\(path)" }

    /// Starts Larder (its scheduler syncs at once, in the background).
    func start(limits: UpstreamLimits = .init()) throws {
        var limits = limits
        limits.requestTimeout = min(limits.requestTimeout, .seconds(10))
        let app = try LarderApplication(
            configuration: configuration, logger: quietLogger, clock: clock, upstreamLimits: limits)
        try app.server.start()
        self.app = app
        if let rates = app.rates {
            scheduler = Task { await rates.refresher.run() }
        }
    }

    func stop() async {
        scheduler?.cancel()
        await scheduler?.value
        scheduler = nil
        await app?.server.stop(drainTimeout: .milliseconds(200))
        await app?.shutdownUpstreamClient()
        app = nil
    }

    func finish() async {
        await stop()
        await upstream.server.stop()
        try? FileManager.default.removeItem(atPath: cacheDirectory)
    }

    var port: Int { app!.server.port }

    func get(_ target: String, headers: [(String, String)] = []) async throws -> TestResponse {
        let port = port
        return try await onThread { try TestConnection.fetch(port: port, target, headers: headers) }
    }

    func request(_ method: String, _ target: String, headers: [(String, String)] = []) async throws -> TestResponse {
        let port = port
        return try await onThread { try TestConnection.fetch(port: port, method, target, headers: headers) }
    }

    // MARK: - The upstream (blocking socket calls run on their own thread, never on the cooperative pool)

    func setFile(_ path: String, _ content: String) async throws {
        let port = upstreamPort
        let response = try await onThread {
            try TestConnection.fetch(port: port, "PUT", "/_control/files" + path, body: Array(content.utf8))
        }
        guard response.status == 200 else { throw TestConnectionError("file swap refused: \(response.text)") }
    }

    func fault(_ json: String) async throws {
        let port = upstreamPort
        let response = try await onThread {
            try TestConnection.fetch(port: port, "PUT", "/_control/faults", body: Array(json.utf8))
        }
        guard response.status == 200 else { throw TestConnectionError("fault refused: \(response.text)") }
    }

    func clearFaults() async throws {
        let port = upstreamPort
        _ = try await onThread { try TestConnection.fetch(port: port, "DELETE", "/_control/faults") }
    }

    /// Requests the upstream got for `path`, by status.
    func upstreamRequests(_ path: String = feedPath) async throws -> (total: Int, statuses: [String: Int]) {
        let port = upstreamPort
        let json = try await onThread { try TestConnection.fetch(port: port, "/_control/requests") }.json
        let paths = json?["paths"] as? [String: Any]
        let counts = paths?[path] as? [String: Any]
        return (counts?["requests"] as? Int ?? 0, counts?["statuses"] as? [String: Int] ?? [:])
    }

    /// Waits (bounded) until the upstream saw `count` requests for the feed.
    func waitForUpstreamRequests(_ count: Int) async throws -> Bool {
        for _ in 0..<500 {
            if try await upstreamRequests().total >= count, !(app?.rates?.refresher.isRefreshing ?? false) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// Builds ECB eurofxref documents for tests.
enum ECB {
    static let rates = [("USD", "1.0862"), ("JPY", "162.41"), ("GBP", "0.84370"), ("CHF", "0.9400"), ("HUF", "310.70")]

    static func document(_ days: [(String, [(String, String)])]) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <gesmes:subject>Reference rates</gesmes:subject>
            <Cube>

            """
        for (date, rates) in days {
            xml += "<Cube time='\(date)'>\n"
            for (code, rate) in rates { xml += "<Cube currency='\(code)' rate='\(rate)'/>\n" }
            xml += "</Cube>\n"
        }
        return xml + "</Cube>\n</gesmes:Envelope>\n"
    }
}
