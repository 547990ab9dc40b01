import Foundation
import LarderHTTP
import LarderTesting
import LarderUpstream
import Logging
import SampleUpstream
import Synchronization
import Testing

/// A sample upstream running in this process on a loopback port, driven over its control API.
struct Upstream: Sendable {
    let port: Int

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Adds a fault (JSON as `PUT /_control/faults` takes it).
    func fault(_ json: String) async throws {
        let port = port
        let response = try await onThread {
            try TestConnection.fetch(port: port, "PUT", "/_control/faults", body: Array(json.utf8))
        }
        guard response.status == 200 else { throw TestConnectionError("fault refused: \(response.text)") }
    }

    /// Replaces (or adds) a served file.
    func put(_ path: String, _ bytes: [UInt8]) async throws {
        let port = port
        let response = try await onThread {
            try TestConnection.fetch(port: port, "PUT", "/_control/files" + path, body: bytes)
        }
        guard response.status == 200 else { throw TestConnectionError("file refused: \(response.text)") }
    }

    /// How often each status was answered for `path`, from `/_control/requests`.
    func statuses(of path: String) async throws -> [String: Int] {
        let port = port
        let log = try await onThread { try TestConnection.fetch(port: port, "/_control/requests") }.json
        let paths = log?["paths"] as? [String: [String: Any]]
        return paths?[path]?["statuses"] as? [String: Int] ?? [:]
    }
}

/// Runs `body` against a sample upstream serving `Examples/upstream`, stopped afterwards.
func withUpstream<T>(_ body: (Upstream) async throws -> T) async throws -> T {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.drainTimeout = .milliseconds(200)
    let upstream = try SampleUpstream(root: ChildProcess.examplesUpstream, configuration: configuration, logger: quietLogger)
    try upstream.server.start()
    do {
        let result = try await body(Upstream(port: upstream.server.port))
        await upstream.server.stop()
        return result
    } catch {
        await upstream.server.stop()
        throw error
    }
}

/// Runs `body` with a client under `limits` (short timeouts by default), always shut down afterwards.
func withClient<T>(
    _ configure: (inout UpstreamLimits) -> Void = { _ in }, _ body: (UpstreamClient) async throws -> T
) async throws -> T {
    var limits = UpstreamLimits()
    // Short enough that a hang fails the test quickly, long enough for a loaded machine running
    // every suite at once; tests of the timeouts themselves set their own.
    limits.connectTimeout = .seconds(5)
    limits.requestTimeout = .seconds(20)
    configure(&limits)
    let client = UpstreamClient(limits: limits, version: "test", logger: quietLogger)
    do {
        let result = try await body(client)
        await client.shutdown()
        return result
    } catch {
        await client.shutdown()
        throw error
    }
}

/// The error a fetch or stream fails with, or nil when it succeeds.
func failure<T>(of fetch: () async throws(UpstreamError) -> T) async -> UpstreamError? {
    do {
        _ = try await fetch()
        return nil
    } catch {
        return error
    }
}

/// The body of a 200, or nil (recorded as an issue) for a 304.
func fetchedBody(_ result: UpstreamResult, sourceLocation: SourceLocation = #_sourceLocation) -> UpstreamBody? {
    guard case .fetched(let body) = result else {
        Issue.record("expected a body, got \(result)", sourceLocation: sourceLocation)
        return nil
    }
    return body
}

let quietLogger = Logger(label: "upstream-tests", factory: { _ in SwiftLogNoOpLogHandler() })

let mebibyte = 1 << 20

/// What a sink received, chunk after chunk.
final class Collected: Sendable {
    private let storage = Mutex<[UInt8]>([])

    func append(_ chunk: [UInt8]) {
        storage.withLock { $0 += chunk }
    }

    var bytes: [UInt8] { storage.withLock { $0 } }
}
