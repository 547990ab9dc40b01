import Foundation
@testable import LarderHTTP
import LarderTesting
import Synchronization
import Testing

/// Responses carrying a file that are dropped before libmicrohttpd sends them close the file once
/// (`OwnedDescriptor`): counted in `/proc/self/fd`, where the server, running in this process, holds them.
@Suite("Owned descriptors: a response dropped unsent closes its file", .serialized)
struct DroppedResponseTests {
    static let batch = 100

    /// 10,000 suspended requests whose clients are gone before the answer, then 10,000 answered
    /// by a stop while their handlers still run: every file the handlers opened is closed again.
    @Test func tenThousandDroppedResponsesCloseEveryFile() async throws {
        raiseOpenFileLimit()
        try await withTemporaryDirectory("larder-dropped") { directory in
            let file = try Self.sampleFile(in: directory)
            let startTotal = Self.openDescriptors()
            // The client gone: the answer comes after the client closed its connection.
            let held = HeldFiles(file)
            try await withServer(configure: { $0.threads = 1 }, routes: { held.route(&$0) }) { server in
                let port = server.port
                for round in 1...(10_000 / Self.batch) {
                    let gate = held.closeGate()
                    try await onThread {
                        let clients = try (0..<Self.batch).map { _ in try TestConnection(port: port, timeout: .seconds(5)) }
                        for client in clients { try client.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
                        // The clients close when this returns, once every handler holds its file.
                        #expect(try eventuallyBlocking { held.entered.load(ordering: .acquiring) == round * Self.batch })
                    }
                    gate.open()
                }
                #expect(try await eventually { Self.openDescriptors(on: file) == 0 }, "files left open after the clients left")
            }
            // The stop: requests still suspended are answered 503 and their handlers' answers dropped.
            let stopped = HeldFiles(file)
            for round in 1...10 {
                let gate = stopped.closeGate()
                try await withServer(configure: { $0.threads = 1; $0.drainTimeout = .milliseconds(10) }, routes: { stopped.route(&$0) }) { server in
                    let port = server.port
                    let clients = try await onThread {
                        let clients = try (0..<(10 * Self.batch)).map { _ in try TestConnection(port: port, timeout: .seconds(5)) }
                        for client in clients { try client.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
                        return UncheckedConnections(clients)
                    }
                    #expect(try await eventually { stopped.entered.load(ordering: .acquiring) == round * 10 * Self.batch })
                    #expect(Self.openDescriptors(on: file) == 10 * Self.batch, "one open file per waiting handler")
                    await server.stop()
                    gate.open()
                    _ = clients
                }
            }
            #expect(try await eventually { Self.openDescriptors(on: file) == 0 }, "files left open after the stops")
            #expect(stopped.entered.load(ordering: .acquiring) == 10_000)
            let endTotal = Self.openDescriptors()
            print("DroppedResponseTests: /proc/self/fd \(startTotal) at the start, \(endTotal) at the end")
        }
    }

    /// An answer libmicrohttpd cannot allocate (the debug-only fault) is the 503 made at start, and
    /// the file it carried is closed; the next answer is whole.
    @Test func anUnallocatableFileAnswerIs503AndClosesItsFile() async throws {
        try await withTemporaryDirectory("larder-dropped") { directory in
            let file = try Self.sampleFile(in: directory)
            let routes: (inout Router) -> Void = { router in
                router.add(.get, "/file", .immediate { _ in
                    Response(body: .file(FileRegion(descriptor: open(file, O_RDONLY), length: 5000)))
                })
            }
            try await withServer(routes: routes) { server in
                let port = server.port
                server.configuration.faults.failingResponses.remaining.store(1, ordering: .relaxed)
                let failed = try await onThread { try TestConnection.fetch(port: port, "/file") }
                #expect(failed.status == 503)
                #expect(failed.header("Retry-After") == "1")
                #expect(failed.errorCode == "unavailable")
                #expect(try await eventually { Self.openDescriptors(on: file) == 0 })
                let whole = try await onThread { try TestConnection.fetch(port: port, "/file") }
                #expect(whole.status == 200)
                #expect(whole.body.count == 5000)
            }
        }
    }

    static func sampleFile(in directory: String) throws -> String {
        let url = URL(fileURLWithPath: directory).appendingPathComponent("body.bin")
        try Data(repeating: 7, count: 5000).write(to: url)
        return url.resolvingSymlinksInPath().path
    }

    /// This process's open descriptors, or those open on `path` only (other tests run alongside).
    static func openDescriptors(on path: String? = nil) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        guard let path else { return entries.count }
        return entries.count { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }
    }
}

/// A suspending route whose handlers open the file, then wait at the current gate before answering with it.
final class HeldFiles: Sendable {
    let path: String
    let entered = Atomic<Int>(0)
    private let gate = Mutex<Gate?>(nil)

    init(_ path: String) { self.path = path }

    /// A new closed gate for the next handlers.
    func closeGate() -> Gate {
        let made = Gate()
        gate.withLock { $0 = made }
        return made
    }

    func route(_ router: inout Router) {
        router.add(.get, "/held", .suspending { [self] _ in
            let file = OwnedDescriptor(open(path, O_RDONLY))
            let waiting = gate.withLock { $0 }
            entered.add(1, ordering: .releasing)
            await waiting?.wait()
            return Response(body: .file(FileRegion(file: file, length: 5000)))
        })
    }
}

/// Handlers wait here until the test opens it.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// Client connections kept open across an `await` (each is used by one thread at a time).
struct UncheckedConnections: @unchecked Sendable {
    let connections: [TestConnection]
    init(_ connections: [TestConnection]) { self.connections = connections }
}
