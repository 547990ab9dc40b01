import Foundation
import LarderHTTP
import LarderTesting
import Logging
import Synchronization
import Testing

@Suite("--threads N: N epoll loops sharing the port")
struct ThreadLoopsTests {
    /// Which server threads answered, and how many handlers ran at once at most.
    final class Meeting: Sendable {
        let inside = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        let threads = Mutex<Set<UInt>>([])

        /// Holds the server thread until another thread's handler is inside too (or 5 s pass):
        /// on one loop the requests could only come one after the other.
        func attend() {
            let now = inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
            var seen = peak.load(ordering: .acquiring)
            while now > seen {
                let (exchanged, original) = peak.compareExchange(
                    expected: seen, desired: now, ordering: .acquiringAndReleasing)
                if exchanged { break }
                seen = original
            }
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            let deadline = ContinuousClock.now + .seconds(5)
            while peak.load(ordering: .acquiring) < 2, ContinuousClock.now < deadline { usleep(1000) }
            inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }

    @Test func twoThreadsServeOnBothLoopsAtOnceAndStopCleanly() async throws {
        raiseOpenFileLimit()
        let meeting = Meeting()
        let routes: (inout Router) -> Void = { router in
            router.add(.get, "/meet", .immediate { _ in
                meeting.attend()
                return Response(body: .string("met"))
            })
        }
        try await withServer(configure: { $0.threads = 2 }, routes: routes) { server in
            let port = server.port
            // The kernel spreads new connections over the loops' sockets by their addresses: 32
            // land on one loop alone once in 2^31.
            let answered = try await onThread {
                let connections = try (0..<32).map { _ in try TestConnection(port: port, timeout: .seconds(10)) }
                for connection in connections { try connection.send("GET /meet HTTP/1.1\r\nHost: localhost\r\n\r\n") }
                return connections.filter { (try? $0.readResponse())?.text == "met" }.count
            }
            #expect(answered == 32)
            #expect(meeting.peak.load(ordering: .acquiring) >= 2, "no two requests were handled at once")
            #expect(meeting.threads.withLock { $0.count } == 2)
            await server.stop()
            // Stopped means neither loop's socket listens any more: a connection is refused, or
            // reaches another test's server that took the freed port (tests run in parallel), never this one.
            let reachedThisServer = try await onThread {
                (0..<8).contains { _ in
                    guard let connection = try? TestConnection(port: port, timeout: .seconds(2)) else { return false }
                    try? connection.send("GET /meet HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    return (try? connection.readResponse())?.text == "met"
                }
            }
            #expect(!reachedThisServer)
        }
    }

    /// Loops sharing a port must not join another server's sockets on it (SO_REUSEPORT would let
    /// them, and the two would split the connections); the port is free again once the first stops.
    @Test func aSecondServerOnATakenPortFailsAndTheFreedPortServesAgain() async throws {
        // A port the kernel never hands to a port-0 bind: a parallel test's server could otherwise
        // take the port between the stop and the second start.
        let fixed = try #require(Self.freePortBelowTheEphemeralRange())
        let port = try await Self.retryingWhileThePortIsHeld {
            try await withServer(configure: { $0.threads = 2; $0.port = fixed }, routes: standardRoutes) { server in
                let port = server.port
                // A served connection, so the stop leaves the port with a closed connection behind.
                _ = try await onThread { try TestConnection.fetch(port: port, "/hello") }
                var configuration = ServerConfiguration()
                configuration.port = port
                configuration.threads = 2
                let second = HTTPServer(configuration: configuration, router: Router(), logger: .init(label: "t"))
                #expect(throws: HTTPServerError.self) { try second.start() }
                return port
            }
        }
        let status = try await Self.retryingWhileThePortIsHeld {
            try await withServer(configure: { $0.threads = 2; $0.port = port }, routes: standardRoutes) { server in
                try await onThread { try TestConnection.fetch(port: server.port, "/hello").status }
            }
        }
        #expect(status == 200)
    }

    /// Runs `start` again while it fails to listen, for at most 5 s. Tests run in parallel, and one that
    /// spawns a process forks first: until the child's exec it holds a copy of every open descriptor,
    /// a probe's or a stopped server's listening socket included, so a free port may be held an instant.
    static func retryingWhileThePortIsHeld<T>(_ start: () async throws -> T) async throws -> T {
        for attempt in 1... {
            do {
                return try await start()
            } catch let error as HTTPServerError {
                guard case .cannotListen = error, attempt < 50 else { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        fatalError("unreachable")
    }

    /// A port below `ip_local_port_range` that binds now, or nil when none of a few tries does.
    static func freePortBelowTheEphemeralRange() -> Int? {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? "32768"
        let low = range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
        guard low > 11_000 else { return nil }
        for _ in 0..<20 {
            let candidate = Int.random(in: 10_000..<low)
            if (try? ListeningSocket(port: candidate, backlog: 1)) != nil { return candidate }
        }
        return nil
    }
}
