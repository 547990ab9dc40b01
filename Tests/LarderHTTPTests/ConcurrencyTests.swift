import Foundation
import LarderHTTP
import LarderTesting
import Logging
import Synchronization
import Testing

@Suite("Keep-alive, suspend/resume and graceful stop")
struct ConcurrencyTests {
    @Test func manyConcurrentKeepAliveConnections() async throws {
        raiseOpenFileLimit()
        try await withServer(routes: standardRoutes) { server in
            let port = server.port
            let (answered, reusedEveryConnection) = try await onThread {
                let connections = try (0..<300).map { _ in try TestConnection(port: port) }
                var answered = 0
                for round in 0..<3 {
                    // All requests go out before any answer is read: 300 requests in flight at once.
                    for (index, connection) in connections.enumerated() {
                        try connection.send("GET /items/\(round)-\(index) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    }
                    for (index, connection) in connections.enumerated() {
                        let response = try connection.readResponse()
                        if response.status == 200, response.text == "\(round)-\(index)" { answered += 1 }
                    }
                }
                return (answered, connections.count == 300)
            }
            #expect(answered == 900)
            #expect(reusedEveryConnection)
        }
    }

    /// Waves of 300 keep-alive connections opened while the previous wave closes, on one thread
    /// (Larder's epoll loop) and on a pool (poll): libmicrohttpd's own epoll thread dropped
    /// 128-connection batches here (see `burstOfExactly128RequestsIsAnsweredPromptly`).
    @Test(arguments: [1, 2])
    func connectionChurnNeverDropsConnections(threads: Int) async throws {
        raiseOpenFileLimit()
        try await withServer(configure: { $0.threads = threads }, routes: standardRoutes) { server in
            let port = server.port
            let (answered, failures) = try await onThread {
                var answered = 0
                var failures: [String] = []
                for wave in 0..<25 {
                    let connections = try (0..<300).map { _ in try TestConnection(port: port, timeout: .seconds(5)) }
                    for round in 0..<3 {
                        for (index, connection) in connections.enumerated() {
                            try? connection.send("GET /items/\(index) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        }
                        for (index, connection) in connections.enumerated() {
                            do {
                                if try connection.readResponse().text == String(index) { answered += 1 }
                            } catch {
                                // One lost connection is the finding; waiting out the rest would take minutes.
                                failures.append("wave \(wave) round \(round) connection \(index): \(error)")
                                return (answered, failures)
                            }
                        }
                    }
                }
                return (answered, failures)
            }
            #expect(failures.isEmpty, "\(failures.count) failed, first: \(failures.first ?? "")")
            #expect(answered == 25 * 3 * 300)
        }
    }

    /// Unpatched, libmicrohttpd's MHD_epoll() left a batch of exactly 128 ready connections unserved
    /// until its timeout (bench/epoll-churn.c); Larder's loop, which waits there, must answer them at
    /// once. Without the patch the loop's one-second turn would bound that stall, so `make epoll-churn`
    /// (in `make test-c`) is the check of the patch itself.
    @Test func burstOfExactly128RequestsIsAnsweredPromptly() async throws {
        raiseOpenFileLimit()
        let routes: (inout Router) -> Void = { router in
            standardRoutes(&router)
            // Holds the only thread, so all 128 requests are ready at its next wait.
            router.add(.get, "/hold", .immediate { _ in
                usleep(300_000)
                return Response(body: .string("held"))
            })
        }
        try await withServer(configure: { $0.threads = 1 }, routes: routes) { server in
            let port = server.port
            let (answered, slowest) = try await onThread {
                let connections = try (0..<128).map { _ in try TestConnection(port: port, timeout: .seconds(10)) }
                for connection in connections { _ = try connection.request("GET", "/hello") }
                let holder = try TestConnection(port: port, timeout: .seconds(10))
                try holder.send("GET /hold HTTP/1.1\r\nHost: localhost\r\n\r\n")
                usleep(100_000)
                for (index, connection) in connections.enumerated() {
                    try connection.send("GET /items/\(index) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                }
                let start = ContinuousClock.now
                var answered = 0
                for (index, connection) in connections.enumerated() {
                    if (try? connection.readResponse())?.text == String(index) { answered += 1 }
                }
                _ = try? holder.readResponse()
                return (answered, ContinuousClock.now - start)
            }
            #expect(answered == 128)
            #expect(slowest < .seconds(15), "answered at once, not after the 30 s connection timeout")
        }
    }

    /// Waves of new connections while a busy keep-alive client runs flat out: no wave's connection
    /// and no request of the busy client may wait more than a few seconds.
    @Test(arguments: [1, 2])
    func connectionChurnUnderLoadLosesNothing(threads: Int) async throws {
        raiseOpenFileLimit()
        try await withServer(configure: { $0.threads = threads }, routes: standardRoutes) { server in
            let port = server.port
            let done = Flag()
            async let busy = onThread {
                let connection = try TestConnection(port: port, timeout: .seconds(5))
                var served = 0
                while !done.isRaised {
                    guard (try? connection.request("GET", "/hello"))?.status == 200 else { return -1 }
                    served += 1
                }
                return served
            }
            let failures = try await onThread {
                var failures: [String] = []
                for wave in 0..<10 {
                    let connections = try (0..<300).map { _ in try TestConnection(port: port, timeout: .seconds(5)) }
                    for (index, connection) in connections.enumerated() {
                        try? connection.send("GET /items/\(index) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    }
                    for (index, connection) in connections.enumerated() where (try? connection.readResponse())?.text != String(index) {
                        failures.append("wave \(wave) connection \(index)")
                    }
                }
                return failures
            }
            done.raise()
            let served = try await busy
            #expect(failures.isEmpty, "\(failures.count) failed, first: \(failures.first ?? "")")
            #expect(served > 0, "the busy connection lost a request")
        }
    }

    @Test func suspendingHandlerDoesNotHoldAWorkerThread() async throws {
        let started = Flag()
        let release = Flag()
        let routes: (inout Router) -> Void = { router in
            standardRoutes(&router)
            // Held until the test has its fast answer: no race against a duration on a busy machine.
            Self.addHeldRoute("/slow", to: &router, answering: "slow", raising: started, until: release)
        }
        // One worker thread: if the slow request held it, /hello could not be answered meanwhile.
        try await withServer(configure: { $0.threads = 1 }, routes: routes) { server in
            let port = server.port
            async let slowAnswer = onThread { try TestConnection(port: port, timeout: .seconds(120)).request("GET", "/slow") }
            try #require(try await eventually { started.isRaised }, "the slow handler never started")
            let fast = try await onThread { try? TestConnection.fetch(port: port, "/hello") }
            let slowStillHeld = !release.isRaised
            release.raise()
            let slow = try await slowAnswer
            #expect(fast?.status == 200, "answered while the slow request was still held")
            #expect(slowStillHeld)
            #expect(slow.status == 200)
            #expect(slow.text == "slow")
        }
    }

    /// A suspending route that raises `started`, then answers `text` after `duration` (simulated slow work).
    static func addSlowRoute(
        _ path: String, to router: inout Router, taking duration: Duration, answering text: String, raising started: Flag
    ) {
        router.add(.get, path, .suspending { _ in
            started.raise()
            try? await Task.sleep(for: duration)
            return Response(body: .string(text))
        })
    }

    /// A suspending route that raises `started`, then answers `text` once `release` is raised (at
    /// most 120 s later): the test, not a duration, decides how long the request is in flight.
    static func addHeldRoute(
        _ path: String, to router: inout Router, answering text: String, raising started: Flag, until release: Flag
    ) {
        router.add(.get, path, .suspending { _ in
            started.raise()
            let deadline = ContinuousClock.now + .seconds(120)
            while !release.isRaised, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return Response(body: .string(text))
        })
    }

    @Test func stopFinishesRequestsInFlight() async throws {
        let started = Flag()
        let release = Flag()
        let routes: (inout Router) -> Void = { router in
            // In flight until the test has seen the drain: no window that a late stop on a busy
            // machine could miss (a CI run once saw every probe answered before the stop began).
            Self.addHeldRoute("/work", to: &router, answering: "done", raising: started, until: release)
            router.add(.get, "/ping", .immediate { _ in Response(body: .string("pong")) })
        }
        // The grace outlasts any wait below, so only the release ends the request in flight.
        try await withServer(configure: { $0.drainTimeout = .seconds(120) }, routes: routes) { server in
            let port = server.port
            async let response = onThread {
                try TestConnection(port: port, timeout: .seconds(120)).request("GET", "/work")
            }
            try #require(try await eventually { started.isRaised }, "handler never started")
            async let stopped: Void = server.stop()
            // While the stop drains, a new request is turned away with 503 and a closed connection.
            var probe: TestResponse?
            let drained = try await eventually(timeout: .seconds(60), every: .milliseconds(5)) {
                probe = try await onThread { try TestConnection.fetch(port: port, "/ping") }
                return probe?.status == 503
            }
            release.raise()
            try #require(drained, "never saw the draining 503")
            #expect(probe?.header("Connection")?.lowercased() == "close")
            #expect(probe?.errorCode == "unavailable")
            await stopped
            let finished = try await response
            #expect(finished.status == 200)
            #expect(finished.text == "done")
            // Stopped means no longer listening.
            let refused = try await onThread { (try? TestConnection(port: port, timeout: .seconds(2))) == nil }
            #expect(refused)
        }
    }

    @Test func stopAnswersStuckRequestsWith503() async throws {
        let started = Flag()
        let routes: (inout Router) -> Void = { router in
            Self.addSlowRoute("/stuck", to: &router, taking: .seconds(30), answering: "too late", raising: started)
        }
        try await withServer(configure: { $0.drainTimeout = .milliseconds(300) }, routes: routes) { server in
            let port = server.port
            async let response = onThread { try TestConnection.fetch(port: port, "/stuck") }
            try #require(try await eventually { started.isRaised }, "handler never started")
            let start = ContinuousClock.now
            await server.stop()
            let stopTook = ContinuousClock.now - start
            let answer = try await response
            #expect(answer.status == 503)
            #expect(answer.header("Retry-After") == "1")
            #expect(answer.errorCode == "unavailable")
            #expect(stopTook < .seconds(20), "the drain timeout (300 ms), not the stuck request (30 s)")
        }
    }

    @Test func fileAndStreamBodies() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("larder-file-\(UUID().uuidString)").path
        let content = (0..<200_000).map { UInt8($0 % 251) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let routes: (inout Router) -> Void = { router in
            router.add(.get, "/file", .immediate { _ in
                let fd = open(path, O_RDONLY)
                return Response(body: .file(FileRegion(descriptor: fd, offset: 1000, length: 5000)))
            })
            router.add(.get, "/stream", .immediate { _ in
                Response(body: .stream(StreamBody(length: nil) { offset, buffer in
                    guard offset < 100_000 else { return .end }
                    let count = min(buffer.count, 100_000 - Int(offset))
                    for i in 0..<count { buffer[i] = UInt8((Int(offset) + i) % 7) }
                    return .wrote(count)
                }))
            })
        }
        try await withServer(routes: routes) { server in
            let port = server.port
            let (file, stream) = try await onThread {
                (try TestConnection.fetch(port: port, "/file"), try TestConnection.fetch(port: port, "/stream"))
            }
            #expect(file.body == Array(content[1000..<6000]))
            #expect(stream.header("Transfer-Encoding") == "chunked")
            #expect(stream.body == (0..<100_000).map { UInt8($0 % 7) })
        }
    }

    @Test func bindsIPv6LoopbackOnAnEphemeralPort() async throws {
        try await withServer(configure: { $0.host = "::1" }, routes: standardRoutes) { server in
            let port = server.port
            #expect(port > 0)
            let response = try await onThread { try TestConnection(host: "::1", port: port).request("GET", "/hello") }
            #expect(response.status == 200)
        }
    }

    @Test func startFailsClearlyWhenThePortIsTaken() async throws {
        try await withServer(routes: standardRoutes) { server in
            var configuration = ServerConfiguration()
            configuration.port = server.port
            let second = HTTPServer(configuration: configuration, router: Router(), logger: .init(label: "t"))
            #expect(throws: HTTPServerError.self) { try second.start() }
        }
    }
}

/// Set once by a handler, awaited by the test (with `eventually`): "the request is being handled now".
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() {
        raised.store(true, ordering: .releasing)
    }

    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
