import Foundation
import LarderHTTP
import LarderTesting
import Logging
import SampleUpstream
import Testing

/// Runs `body` against a sample upstream serving the repository's `Examples/upstream`.
func withUpstream(_ body: (Int) async throws -> Void) async throws {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.drainTimeout = .milliseconds(200)
    let upstream = try SampleUpstream(
        root: ChildProcess.examplesUpstream, configuration: configuration,
        logger: Logger(label: "upstream", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    try upstream.server.start()
    do {
        try await body(upstream.server.port)
    } catch {
        await upstream.server.stop()
        throw error
    }
    await upstream.server.stop()
}

func putFault(_ port: Int, _ json: String) throws {
    let response = try TestConnection.fetch(port: port, "PUT", "/_control/faults", body: Array(json.utf8))
    guard response.status == 200 else { throw TestConnectionError("fault refused: \(response.text)") }
}

@Suite("Sample upstream: validators and fault modes")
struct SampleUpstreamTests {
    static let daily = "/rates/eurofxref-daily.xml"

    @Test func servesFilesWithValidatorsAnd304s() async throws {
        try await withUpstream { port in
            let (full, byTag, byDate, staleTag, head) = try await onThread {
                let full = try TestConnection.fetch(port: port, Self.daily)
                let etag = full.header("ETag") ?? ""
                let lastModified = full.header("Last-Modified") ?? ""
                return (
                    full,
                    try TestConnection.fetch(port: port, Self.daily, headers: [("If-None-Match", etag)]),
                    try TestConnection.fetch(port: port, Self.daily, headers: [("If-Modified-Since", lastModified)]),
                    try TestConnection.fetch(port: port, Self.daily, headers: [("If-None-Match", "\"other\"")]),
                    try TestConnection.fetch(port: port, "HEAD", Self.daily)
                )
            }
            let onDisk = try Data(contentsOf: ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-daily.xml"))
            #expect(full.status == 200)
            #expect(full.body == Array(onDisk))
            #expect(full.header("Content-Type") == "application/xml")
            #expect(full.header("ETag")?.hasPrefix("\"") == true)
            #expect(full.header("Last-Modified").flatMap(HTTPDate.parse) != nil)
            #expect(byTag.status == 304)
            #expect(byTag.header("ETag") == full.header("ETag"))
            #expect(byDate.status == 304)
            #expect(staleTag.status == 200)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(onDisk.count))
        }
    }

    @Test func answersAnInjectedStatusForALimitedNumberOfRequests() async throws {
        try await withUpstream { port in
            let statuses = try await onThread {
                try putFault(port, #"{"path":"\#(Self.daily)","status":503,"times":2}"#)
                return try (0..<3).map { _ in try TestConnection.fetch(port: port, Self.daily).status }
            }
            #expect(statuses == [503, 503, 200])
        }
    }

    @Test func delaysAnswers() async throws {
        try await withUpstream { port in
            let elapsed = try await onThread {
                try putFault(port, #"{"path":"*","delay_ms":700,"times":1}"#)
                let start = ContinuousClock.now
                _ = try TestConnection.fetch(port: port, Self.daily)
                return ContinuousClock.now - start
            }
            #expect(elapsed >= .milliseconds(650))
        }
    }

    @Test func truncatesBodiesShortOfTheirLength() async throws {
        try await withUpstream { port in
            let (received, declared) = try await onThread {
                try putFault(port, #"{"path":"\#(Self.daily)","truncate_at":100,"times":1}"#)
                let connection = try TestConnection(port: port)
                try connection.send("GET \(Self.daily) HTTP/1.1\r\nHost: x\r\n\r\n")
                let raw = try connection.readToEnd()
                let text = String(decoding: raw, as: UTF8.self)
                let head = text.components(separatedBy: "\r\n\r\n")[0]
                let length = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
                return (raw.count - head.utf8.count - 4, length ?? 0)
            }
            #expect(received == 100)
            #expect(declared > 100)
        }
    }

    @Test func sendsGarbageInsteadOfTheFile() async throws {
        try await withUpstream { port in
            let response = try await onThread {
                try putFault(port, #"{"path":"\#(Self.daily)","body":"<html>maintenance</html>","content_type":"text/html"}"#)
                return try TestConnection.fetch(port: port, Self.daily)
            }
            #expect(response.status == 200)
            #expect(response.text == "<html>maintenance</html>")
            #expect(response.header("Content-Type") == "text/html")
        }
    }

    @Test func swapsAndRemovesFiles() async throws {
        try await withUpstream { port in
            let (before, after, oldTagNow, removed, gone) = try await onThread {
                let before = try TestConnection.fetch(port: port, "/rates/rates.txt")
                let put = try TestConnection.fetch(port: port, "PUT", "/_control/files/rates/rates.txt", body: Array("USD|US dollar|1.5\n".utf8))
                guard put.status == 200 else { throw TestConnectionError("swap refused") }
                let after = try TestConnection.fetch(port: port, "/rates/rates.txt")
                let oldTagNow = try TestConnection.fetch(port: port, "/rates/rates.txt", headers: [("If-None-Match", before.header("ETag") ?? "")])
                let removed = try TestConnection.fetch(port: port, "DELETE", "/_control/files/rates/rates.txt")
                return (before, after, oldTagNow, removed, try TestConnection.fetch(port: port, "/rates/rates.txt"))
            }
            #expect(after.text == "USD|US dollar|1.5\n")
            #expect(after.header("ETag") != before.header("ETag"))
            let beforeDate = before.header("Last-Modified").flatMap(HTTPDate.parse) ?? .max
            let afterDate = after.header("Last-Modified").flatMap(HTTPDate.parse) ?? .min
            #expect(afterDate > beforeDate)
            #expect(oldTagNow.status == 200)
            #expect(removed.status == 200)
            #expect(gone.status == 404)
        }
    }

    @Test func countsRequestsPerPathAndStatus() async throws {
        try await withUpstream { port in
            let counts = try await onThread {
                let first = try TestConnection.fetch(port: port, "/documents/index.json")
                _ = try TestConnection.fetch(port: port, "/documents/index.json", headers: [("If-None-Match", first.header("ETag") ?? "")])
                _ = try TestConnection.fetch(port: port, "/documents/missing.txt")
                return try TestConnection.fetch(port: port, "/_control/requests")
            }.json
            #expect(counts?["total"] as? Int == 3)
            let paths = counts?["paths"] as? [String: [String: Any]]
            let index = paths?["/documents/index.json"]
            #expect(index?["requests"] as? Int == 2)
            #expect((index?["statuses"] as? [String: Int]) == ["200": 1, "304": 1])
            #expect((paths?["/documents/missing.txt"]?["statuses"] as? [String: Int]) == ["404": 1])
        }
    }

    @Test func refusesMalformedFaults() async throws {
        try await withUpstream { port in
            let response = try await onThread {
                try TestConnection.fetch(port: port, "PUT", "/_control/faults", body: Array("{\"status\":".utf8))
            }
            #expect(response.status == 422)
            #expect(response.errorCode == "bad_fault")
        }
    }
}
