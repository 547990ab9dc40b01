import Foundation
import LarderHTTP
import LarderTesting
import Testing

@Suite("Sample upstream: validators and fault modes")
struct SampleUpstreamTests {
    static let daily = "/rates/eurofxref-daily.xml"

    @Test func servesFilesWithValidatorsAnd304s() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
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
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"\#(Self.daily)","status":503,"times":2}"#)
            let statuses = try await onThread {
                try (0..<3).map { _ in try TestConnection.fetch(port: port, Self.daily).status }
            }
            #expect(statuses == [503, 503, 200])
        }
    }

    @Test func delaysAnswers() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"*","delay_ms":700,"times":1}"#)
            let elapsed = try await onThread {
                let start = ContinuousClock.now
                _ = try TestConnection.fetch(port: port, Self.daily)
                return ContinuousClock.now - start
            }
            #expect(elapsed >= .milliseconds(650))
        }
    }

    @Test func truncatesBodiesShortOfTheirLength() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"\#(Self.daily)","truncate_at":100,"times":1}"#)
            let (received, declared) = try await onThread {
                let connection = try TestConnection(port: port)
                try connection.send("GET \(Self.daily) HTTP/1.1\r\nHost: localhost\r\n\r\n")
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
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"\#(Self.daily)","body":"<html>maintenance</html>","content_type":"text/html"}"#)
            let response = try await onThread { try TestConnection.fetch(port: port, Self.daily) }
            #expect(response.status == 200)
            #expect(response.text == "<html>maintenance</html>")
            #expect(response.header("Content-Type") == "text/html")
        }
    }

    @Test func swapsAndRemovesFiles() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
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
        try await withSampleUpstream { upstream in
            let port = upstream.port
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
        try await withSampleUpstream { upstream in
            let port = upstream.port
            let response = try await onThread {
                try TestConnection.fetch(port: port, "PUT", "/_control/faults", body: Array("{\"status\":".utf8))
            }
            #expect(response.status == 422)
            #expect(response.errorCode == "bad_fault")
        }
    }
}
