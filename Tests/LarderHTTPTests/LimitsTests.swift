import Foundation
import LarderHTTP
import LarderTesting
import Testing

@Suite("Client-side limits (SPEC §6)")
struct LimitsTests {
    @Test func longTargetIs414() async throws {
        try await withServer(routes: standardRoutes) { server in
            let json = try await server.get("/hello?" + String(repeating: "a", count: 10_000))
            let huge = try await server.get("/hello?" + String(repeating: "a", count: 40_000))
            #expect(json.status == 414)
            #expect(json.errorCode == "uri_too_long")
            // Past libmicrohttpd's memory pool it answers by itself, still with the right status.
            #expect(huge.status == 414)
        }
    }

    @Test func largeHeadersAre431() async throws {
        try await withServer(routes: standardRoutes) { server in
            let json = try await server.get("/hello", headers: [("X-Big", String(repeating: "b", count: 20_000))])
            let huge = try await server.get("/hello", headers: [("X-Big", String(repeating: "b", count: 40_000))])
            #expect(json.status == 431)
            #expect(json.errorCode == "headers_too_large")
            #expect(huge.status == 431)
        }
    }

    @Test func oversizeBodyIs413AndSmallBodyIsRead() async throws {
        try await withServer(configure: { $0.maxBodyBytes = 1024 }, routes: standardRoutes) { server in
            let port = server.port
            let (small, large) = try await onThread {
                let small = try TestConnection.fetch(port: port, "POST", "/echo", body: Array(repeating: 7, count: 1000))
                let connection = try TestConnection(port: port)
                // Only the head: the answer must come without the body being sent.
                try connection.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000000\r\n\r\n")
                return (small, try connection.readResponse())
            }
            #expect(small.status == 200)
            #expect(small.body == Array(repeating: 7, count: 1000))
            #expect(large.status == 413)
            #expect(large.errorCode == "payload_too_large")
        }
    }

    @Test func junkOnTheSocketNeverHurtsTheServer() async throws {
        try await withServer(configure: { $0.connectionTimeoutSeconds = 2 }, routes: standardRoutes) { server in
            let port = server.port
            let junk: [[UInt8]] = [
                Array("garbage\r\n\r\n".utf8),
                [0, 1, 2, 255, 254, 13, 10, 13, 10],
                Array(0...255) + Array(0...255),
                Array("GET / HTTP/9.9\r\n\r\n".utf8),
                Array("GET /hello HTTP/1.1\r\nHost: localhost\r\nNoColonHere\r\n\r\n".utf8),
                Array("GET /hello HTTP/1.1\r\nContent-Length: -5\r\n\r\n".utf8),
            ]
            let statuses = try await onThread {
                try junk.map { bytes -> Int in
                    let connection = try TestConnection(port: port, timeout: .seconds(5))
                    try connection.send(bytes)
                    let reply = String(decoding: (try? connection.readToEnd()) ?? [], as: UTF8.self)
                    // Either an error status or a closed connection; never a 2xx, never a hang.
                    return Int(reply.split(separator: " ").dropFirst().first ?? "0") ?? 0
                }
            }
            for status in statuses { #expect(status == 0 || (400..<600).contains(status)) }
            let after = try await onThread { try TestConnection.fetch(port: port, "/hello") }
            #expect(after.status == 200)
        }
    }

    @Test func stalledClientIsCutOffByTheTimeout() async throws {
        try await withServer(configure: { $0.connectionTimeoutSeconds = 1 }, routes: standardRoutes) { server in
            let port = server.port
            let (closed, elapsed) = try await onThread {
                let connection = try TestConnection(port: port, timeout: .seconds(30))
                try connection.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n")  // and never the blank line
                let start = ContinuousClock.now
                return (connection.waitForClose(), ContinuousClock.now - start)
            }
            #expect(closed)
            #expect(elapsed < .seconds(20), "the 1 s timeout, not the read timeout (30 s)")
        }
    }

    /// On one thread and on several, whose loops share the count: the kernel spreads new connections
    /// over the loops' sockets, so a count per loop would let some of the extra ones in.
    @Test(arguments: [1, 2, 4])
    func perAddressLimitRefusesTheExtraConnection(threads: Int) async throws {
        try await withServer(configure: { $0.maxConnectionsPerIP = 3; $0.threads = threads }, routes: standardRoutes) { server in
            let port = server.port
            let extraClosed = try await onThread {
                let held = try (0..<3).map { _ in try TestConnection(port: port, timeout: .seconds(5)) }
                for connection in held { _ = try connection.request("GET", "/hello") }
                return try (0..<6).allSatisfy { _ in
                    let extra = try TestConnection(port: port, timeout: .seconds(5))
                    return (try? extra.request("GET", "/hello")) == nil
                }
            }
            // The held connections closed as that work ended: once the server has seen it, the
            // address may connect again.
            var servedAfter = 0
            _ = try await eventually(every: .milliseconds(100)) {
                servedAfter = try await onThread { (try? TestConnection.fetch(port: port, "/hello"))?.status ?? 0 }
                return servedAfter == 200
            }
            #expect(extraClosed)
            #expect(servedAfter == 200)
        }
    }
}
