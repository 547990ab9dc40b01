import Foundation
import Glibc
import LarderConfig
import LarderTesting
import Testing

/// A raw loopback connection from a chosen source address (slowloris from 127.0.0.2).
private func connect(from source: String, to port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    var remote = sockaddr_in()
    remote.sin_family = sa_family_t(AF_INET)
    remote.sin_port = in_port_t(UInt16(port).bigEndian)
    remote.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    let connected = withUnsafePointer(to: &remote) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, connected == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// True when the peer closed the connection within `timeout` (a read returns 0 or fails).
private func closedByPeer(_ descriptor: Int32, within timeout: Duration) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    guard poll(&entry, 1, milliseconds) > 0 else { return false }
    var byte: UInt8 = 0
    return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
}

@Suite("Client abuse: stalled, junk and hostile requests never crash, hang, leak or change the cache", .serialized)
struct ClientAbuseTests {
    /// Larder caching documents and rates, its first sync done, closing idle clients after `clientTimeout`.
    private func withSyncedLarder(
        clientTimeout: Duration = .seconds(30), _ body: (TestLarder) async throws -> Void
    ) async throws {
        try await withDocuments(sampleDocuments, rates: true) { configuration, _ in
            configuration.clientTimeout = clientTimeout
        } _: { larder, _ in
            #expect(try await larder.waitForSync())
            try await body(larder)
        }
    }

    @Test func slowlorisFromAnotherAddressDoesNotStarveANormalClient() async throws {
        try await withSyncedLarder(clientTimeout: .seconds(2), slowloris)
    }

    private func slowloris(_ larder: TestLarder) async throws {
        let port = larder.port
        let (stalled, normal, closed) = try await onThread { () -> (Int, Duration, Int) in
            // 300 connections from 127.0.0.2, each sending half a request line and then nothing.
            var descriptors: [Int32] = []
            for _ in 0..<300 {
                guard let descriptor = connect(from: "127.0.0.2", to: port) else { continue }
                _ = send(descriptor, "GET /rates HTTP/1.1\r\nHost: localhost\r\nX-Slow:", 36, Int32(MSG_NOSIGNAL))
                descriptors.append(descriptor)
            }
            let start = ContinuousClock.now
            let answer = try TestConnection.fetch(port: port, "/rates")
            let elapsed = ContinuousClock.now - start
            #expect(answer.status == 200)
            // One deadline for all of them: the 2 s timeout closes them together, or the test fails in 8 s.
            let deadline = ContinuousClock.now + .seconds(8)
            var closed = 0
            for descriptor in descriptors {
                let left = max(.zero, deadline - ContinuousClock.now)
                if closedByPeer(descriptor, within: left) { closed += 1 }
                close(descriptor)
            }
            return (descriptors.count, elapsed, closed)
        }
        let health = try await larder.get("/health")
        #expect(stalled == 300)
        #expect(normal < .seconds(1), "the normal client waited \(normal)")
        #expect(closed == stalled, "every stalled connection is closed by the client timeout")
        #expect(health.status == 200)
    }

    @Test func aThousandJunkRequestsChangeNothing() async throws {
        try await withSyncedLarder(clientTimeout: .seconds(1), sendJunk)
    }

    private func sendJunk(_ larder: TestLarder) async throws {
        let before = try await larder.get("/rates")
        let port = larder.port
        let answered = try await onThread { () -> Int in
            var generator = SystemRandomNumberGenerator()
            var answered = 0
            for round in 0..<1000 {
                guard let connection = try? TestConnection(port: port, timeout: .seconds(5)) else { continue }
                let length = Int.random(in: 1...600, using: &generator)
                var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if round % 3 == 0 { bytes = Array("GET /".utf8) + bytes + Array(" HTTP/1.1\r\n\r\n".utf8) }
                try? connection.send(bytes)
                // End the request side: the server answers what it has, or closes, at once.
                shutdown(connection.descriptor, Int32(SHUT_WR))
                if (try? connection.readToEnd()) != nil { answered += 1 }
            }
            return answered
        }
        let after = try await larder.get("/rates")
        let health = try await larder.get("/health")
        #expect(answered > 0)
        #expect(health.status == 200)
        #expect(after.body == before.body)
    }

    /// Every smuggling form aims at one refresh and hides another: had either run, the upstream
    /// would have counted a request, so unchanged counts mean neither did.
    @Test func smugglingAttemptsAreRefusedAndRunNothing() async throws {
        try await withDocuments(sampleDocuments, rates: true) { larder, upstream in
            #expect(try await larder.waitForSync())
            let cached = ["/rates", "/documents", "/documents/a.txt"]
            var before: [[UInt8]] = []
            for path in cached { before.append(try await larder.get(path).body) }
            let fetchesBefore = try await upstream.allRequests().mapValues(\.total)
            let attempts = SmugglingAttempt.all(
                target: "/documents/refresh",
                smuggled: "POST /rates/refresh HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
            let port = larder.port
            let exchanges = try await onThread { try attempts.map { try TestConnection.exchange(port: port, $0.bytes) } }
            for (attempt, exchange) in zip(attempts, exchanges) {
                let mismatches = attempt.mismatches(exchange)
                #expect(mismatches.isEmpty, "\(attempt): \(mismatches)")
            }
            var after: [[UInt8]] = []
            for path in cached { after.append(try await larder.get(path).body) }
            let fetchesAfter = try await upstream.allRequests().mapValues(\.total)
            #expect(after == before)
            #expect(fetchesAfter == fetchesBefore, "a refresh ran")
            // The control: a refresh that does run moves the counts.
            #expect(try await larder.post("/documents/refresh").status == 200)
            #expect(try await upstream.allRequests().mapValues(\.total) != fetchesAfter)
        }
    }

    static let hostileValues = [
        "", "%00", "%FF%FE", "..%2F..%2Fetc%2Fpasswd", String(repeating: "A", count: 4000), "%E2%80%AE",
        "USD%0D%0AX-Injected:%201", "1e999999", "-1", "99999999999999999999999999", "' OR 1=1 --", "%C0%AF",
        "%ef%bc%a1", "\u{7f}", "%25%32%65",
    ]

    @Test func hostileQueryValuesOnEveryRouteAreAnsweredWithoutA5xx() async throws {
        try await withSyncedLarder(sendHostileQueries)
    }

    private func sendHostileQueries(_ larder: TestLarder) async throws {
        let before = try await larder.get("/rates")
        let routes = ["/rates", "/rates/2026-11-20", "/currencies", "/documents", "/documents/a.txt", "/health",
                      "/ready", "/status", "/metrics"]
        let parameters = ["base", "symbols", "amount", "from", "to", "x"]
        var failures: [String] = []
        for route in routes {
            for parameter in parameters {
                for value in Self.hostileValues {
                    let target = "\(route)?\(parameter)=\(value.contains("%") ? value : value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
                    let answer = try await larder.get(target)
                    if answer.status >= 500 { failures.append("\(target) → \(answer.status)") }
                    if answer.status >= 400, answer.header("Content-Type") != "application/json" {
                        failures.append("\(target) → \(answer.status) without a JSON error")
                    }
                    if answer.headers.contains(where: { $0.name.lowercased() == "x-injected" }) {
                        failures.append("\(target) → header injection")
                    }
                }
            }
        }
        let after = try await larder.get("/rates")
        #expect(failures.isEmpty, "\(failures.prefix(10))")
        #expect(after.body == before.body)
    }
}
