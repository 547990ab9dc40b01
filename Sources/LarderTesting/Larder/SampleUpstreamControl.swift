import Foundation
import LarderHTTP
import SampleUpstream

/// Runs `body` against a sample upstream on a loopback port serving the repository's
/// `Examples/upstream`, read into memory at start (files a test puts stay in that memory), stopped
/// on every exit path.
public func withSampleUpstream<T: Sendable>(_ body: (SampleUpstreamControl) async throws -> T) async throws -> T {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.threads = 4
    configuration.drainTimeout = .milliseconds(200)
    // Reading the folder and starting libmicrohttpd's threads: on a thread of its own (see `onThread`).
    let upstream = try await onThread { [configuration] in
        let upstream = try SampleUpstream(
            root: ChildProcess.examplesUpstream, configuration: configuration, logger: quietLogger)
        try upstream.server.start()
        return upstream
    }
    return try await withCleanup { try await body(SampleUpstreamControl(upstream)) } cleanup: { await upstream.server.stop() }
}

/// How often the sample upstream answered one path, in all and by status, and how many requests for it it holds now.
public struct RequestCount: Sendable, Equatable {
    public var total: Int
    public var statuses: [String: Int]
    public var inFlight = 0
    /// The most requests for it held at once since the last reset.
    public var maxInFlight = 0
}

/// The sample upstream as a test drives it: its URLs, and its control API (files, faults, request counts).
public struct SampleUpstreamControl: Sendable {
    let upstream: SampleUpstream

    init(_ upstream: SampleUpstream) {
        self.upstream = upstream
    }

    public var port: Int { upstream.server.port }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Serves `bytes` at `path` from now on (replacing the file there, or adding one).
    public func put(_ path: String, _ bytes: [UInt8]) async throws {
        let response = try await control("PUT", "/_control/files" + path, body: bytes, timeout: .seconds(60))
        guard response.status == 200 else { throw TestConnectionError("file swap refused: \(response.text)") }
    }

    public func put(_ path: String, _ text: String) async throws {
        try await put(path, Array(text.utf8))
    }

    /// Adds a fault, as `PUT /_control/faults` takes it (`{"path":…,"status":500}`, `{"delay_ms":…}`, …).
    public func fault(_ json: String) async throws {
        let response = try await control("PUT", "/_control/faults", body: Array(json.utf8))
        guard response.status == 200 else { throw TestConnectionError("fault refused: \(response.text)") }
    }

    /// The day the Frankfurter routes take as today (for answers without a date).
    public func setToday(_ day: String) async throws {
        let response = try await control("PUT", "/_control/today", body: Array(day.utf8))
        guard response.status == 200 else { throw TestConnectionError("today refused: \(response.text)") }
    }

    public func clearFaults() async throws {
        _ = try await control("DELETE", "/_control/faults")
    }

    /// Requests the upstream answered for `path`, by status.
    public func requests(_ path: String) async throws -> RequestCount {
        try await allRequests()[path] ?? RequestCount(total: 0, statuses: [:])
    }

    /// Requests the upstream answered, per path it was asked for.
    public func allRequests() async throws -> [String: RequestCount] {
        let json = try await control("GET", "/_control/requests").json
        let paths = json?["paths"] as? [String: [String: Any]] ?? [:]
        return paths.mapValues {
            RequestCount(
                total: $0["requests"] as? Int ?? 0, statuses: $0["statuses"] as? [String: Int] ?? [:],
                inFlight: $0["in_flight"] as? Int ?? 0, maxInFlight: $0["max_in_flight"] as? Int ?? 0)
        }
    }

    public func resetRequests() async throws {
        _ = try await control("DELETE", "/_control/requests")
    }

    /// Stops answering (connections refused from now on).
    public func stop() async {
        await upstream.server.stop()
    }

    func control(
        _ method: String, _ target: String, body: [UInt8] = [], timeout: Duration = .seconds(60)
    ) async throws -> TestResponse {
        let port = port
        return try await onThread {
            try TestConnection(port: port, timeout: timeout).request(method, target, body: body)
        }
    }
}
