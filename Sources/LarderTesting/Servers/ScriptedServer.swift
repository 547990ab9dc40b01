import Foundation
import Glibc
import Synchronization

/// A loopback server that answers every connection by a script of raw bytes and pauses, for what
/// the sample upstream cannot do: a head followed by a stalled body, a chunked body, and a look at
/// the request head the client sent.
public final class ScriptedServer: Sendable {
    /// One move of the script, played on every connection after its request head arrived.
    public enum Step: Sendable {
        /// Sends the text as UTF-8.
        case send(String)
        /// Sends the bytes as they are.
        case sendBytes([UInt8])
        /// Sends nothing for this long (cut short when the server stops).
        case pause(Duration)
    }

    private let listener: ListeningSocket
    private let script: [Step]
    private let heads = Mutex<[String]>([])
    private let stopped = Atomic<Bool>(false)

    /// The loopback port it listens on.
    public var port: Int { listener.port }

    /// The request heads received so far, in order.
    public var requestHeads: [String] { heads.withLock { $0 } }

    /// Listens on a port the kernel picks; answers nothing until `start()`.
    public init(_ script: [Step]) throws {
        listener = try ListeningSocket()
        self.script = script
    }

    /// Accepts connections on a thread of its own until `stop()`.
    public func start() {
        Thread { [self] in acceptLoop() }.start()
    }

    /// Stops accepting and ends scripts at their next step.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener.descriptor, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let head = readHead(connection) else { return }
        heads.withLock { $0.append(head) }
        for step in script {
            switch step {
            case .send(let text):
                guard send(Array(text.utf8), on: connection) else { return }
            case .sendBytes(let bytes):
                guard send(bytes, on: connection) else { return }
            case .pause(let duration):
                let end = ContinuousClock.now + duration
                while ContinuousClock.now < end, !stopped.load(ordering: .relaxed) {
                    usleep(20_000)
                }
            }
        }
    }

    private func readHead(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.ends(with: [13, 10, 13, 10]) {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    private func send(_ bytes: [UInt8], on connection: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}

extension [UInt8] {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}

/// Runs `body` with a scripted server, stopped on every exit path.
public func withScriptedServer<T>(_ script: [ScriptedServer.Step], _ body: (ScriptedServer) async throws -> T) async throws -> T {
    let server = try ScriptedServer(script)
    server.start()
    defer { server.stop() }
    return try await body(server)
}

extension ScriptedServer {
    /// The value of a header in the first request head received.
    public func requestHeader(_ name: String) -> String? {
        guard let head = requestHeads.first else { return nil }
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
