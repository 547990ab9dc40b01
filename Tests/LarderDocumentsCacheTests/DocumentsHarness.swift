import Crypto
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

/// One document as a test publishes it upstream.
struct TestDocument: Sendable {
    var name: String
    var content: [UInt8]
    var updatedAt = "2026-11-01T10:00:00Z"
    var createdAt = "2026-10-01T09:00:00Z"
    /// Published in the index instead of the real hash or size (to test verification).
    var claimedSHA256: String?
    var claimedSize: Int?
    /// Where the index says to fetch it from; the name (relative to the index) when nil.
    var url: String?

    init(_ name: String, _ text: String) {
        self.name = name
        content = Array(text.utf8)
    }

    var sha256: String { SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined() }

    var indexEntry: String {
        #"{"name":"\#(name)","url":"\#(url ?? name)","size":\#(claimedSize ?? content.count),"sha256":"\#(claimedSHA256 ?? sha256)","content_type":"text/plain","created_at":"\#(createdAt)","updated_at":"\#(updatedAt)"}"#
    }
}

/// A sample upstream publishing documents under `/docs/`, and a Larder mirroring it, with a clock the test moves.
final class DocumentsHarness: @unchecked Sendable {
    static let indexPath = "/docs/index.json"

    let upstream: SampleUpstream
    let clock = ManualClock()
    let cacheDirectory = NSTemporaryDirectory() + "larder-docs-\(UUID().uuidString)"
    var configuration: Configuration
    private(set) var app: LarderApplication?
    private var scheduler: Task<Void, Never>?

    init(_ documents: [TestDocument]) async throws {
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
        configuration.documents = UpstreamResource(url: upstreamURL(Self.indexPath), format: .auto)
        try await publish(documents)
    }

    var upstreamPort: Int { upstream.server.port }

    func upstreamURL(_ path: String) -> String { "http://127.0.0.1:\(upstreamPort)\(path)" }

    /// Puts every document's bytes and then the index listing them.
    func publish(_ documents: [TestDocument], index: String? = nil) async throws {
        for document in documents {
            try await put("/docs/" + document.name, document.content)
        }
        try await put(Self.indexPath, Array((index ?? Self.index(documents)).utf8))
    }

    static func index(_ documents: [TestDocument]) -> String {
        #"{"version":1,"generated_at":"2026-11-20T12:00:00Z","documents":["# + documents.map(\.indexEntry).joined(separator: ",") + "]}"
    }

    // Blocking socket calls run on their own thread, never on the cooperative pool.
    func put(_ path: String, _ bytes: [UInt8]) async throws {
        let port = upstreamPort
        // Large bodies (the 50 MiB document) get time to be hashed by a debug-built upstream on a busy machine.
        let response = try await onThread {
            try TestConnection(port: port, timeout: .seconds(60)).request("PUT", "/_control/files" + path, body: bytes)
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

    /// Also serve the sample upstream's daily ECB file as `/rates` (the fault matrix covers both).
    func withRates() {
        configuration.rates = UpstreamResource(url: upstreamURL(Self.ratesPath), format: .auto)
        configuration.ratesTTL = .seconds(100)
        configuration.documentsTTL = .seconds(100)
    }

    static let ratesPath = "/rates/eurofxref-daily.xml"

    func start(requestTimeout: Duration = .seconds(10)) throws {
        var limits = UpstreamLimits()
        limits.requestTimeout = requestTimeout
        let app = try LarderApplication(configuration: configuration, logger: quietLogger, clock: clock, upstreamLimits: limits)
        try app.server.start()
        self.app = app
        let documents = app.documents, rates = app.rates
        scheduler = Task {
            await withTaskGroup(of: Void.self) { group in
                if let documents { group.addTask { await documents.refresher.run() } }
                if let rates { group.addTask { await rates.refresher.run() } }
            }
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
        return try await onThread {
            try TestConnection(port: port, timeout: .seconds(30)).request("GET", target, headers: headers)
        }
    }

    func post(_ target: String) async throws -> TestResponse {
        let port = port
        return try await onThread { try TestConnection.fetch(port: port, "POST", target) }
    }

    /// Requests the upstream got, per path.
    func upstreamRequests() async throws -> [String: (total: Int, statuses: [String: Int])] {
        let port = upstreamPort
        let json = try await onThread { try TestConnection.fetch(port: port, "/_control/requests") }.json
        let paths = json?["paths"] as? [String: [String: Any]] ?? [:]
        return paths.mapValues { ($0["requests"] as? Int ?? 0, $0["statuses"] as? [String: Int] ?? [:]) }
    }

    func resetRequests() async throws {
        let port = upstreamPort
        _ = try await onThread { try TestConnection.fetch(port: port, "DELETE", "/_control/requests") }
    }

    /// Waits (bounded) until the first sync finished.
    func waitForSync() async -> Bool {
        for _ in 0..<500 {
            // This run's first attempt has started (a restart loads an old fetched_at) and finished.
            if let refresher = app?.documents?.refresher, refresher.status.lastAttempt != nil,
               !refresher.isRefreshing,
               app?.rates.map({ $0.refresher.status.lastAttempt != nil && !$0.refresher.isRefreshing }) ?? true {
                return true
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
