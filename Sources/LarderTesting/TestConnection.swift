import Foundation
import Glibc

/// A parsed HTTP/1.1 response as a test sees it on the wire.
public struct TestResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the named field, in order (a list field such as `Vary` may come as several).
    public func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object (fails the caller's expectation when it is not one).
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    /// `error.code` of a Larder JSON error body.
    public var errorCode: String? {
        (json?["error"] as? [String: Any])?["code"] as? String
    }
}

/// Why a wire-level exchange failed.
public struct TestConnectionError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A blocking TCP connection to a loopback server, for tests that need control of the bytes:
/// keep-alive reuse, raw junk, partial requests, stalls. Every read is bounded by a timeout.
public final class TestConnection {
    public let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host:port` (IPv4 or IPv6 literal); reads time out after `timeout`.
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(60)) throws {
        raiseOpenFileLimit()
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw TestConnectionError("cannot resolve \(host)")
        }
        defer { freeaddrinfo(result) }
        // Close-on-exec: a child process spawned meanwhile must not keep this connection open.
        descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestConnectionError("socket: \(errno)") }
        var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var connected = connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen)
        if connected != 0, errno == EINTR {
            // An interrupted connect completes in the background; wait until the socket is writable.
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            while poll(&poller, 1, 10_000) < 0, errno == EINTR {}
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            connected = error == 0 ? 0 : -1
        }
        guard connected == 0 else {
            // No close here: the object is fully initialised, so deinit closes the socket (once).
            throw TestConnectionError("connect to \(host):\(port): errno \(errno)")
        }
    }

    deinit {
        close(descriptor)
    }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw TestConnectionError("send failed: errno \(errno)") }
            sent += n
        }
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends a request (unless given, Host and Content-Length filled in) and reads the response.
    public func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> TestResponse {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse(method: method)
    }

    /// Reads one response; `method` tells whether a body follows (not for HEAD).
    public func readResponse(method: String = "GET") throws -> TestResponse {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestConnectionError("bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = TestResponse(status: status, headers: headers, body: [])
        if method == "HEAD" || status == 304 || status == 204 || (100..<200).contains(status) {
            return response
        }
        let body: [UInt8]
        if let length = response.header("Content-Length").flatMap(Int.init) {
            body = try readExactly(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            body = try readChunked()
        } else {
            body = try readToEnd()
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// Reads until the server closes; returns what came. Throws on timeout.
    public func readToEnd() throws -> [UInt8] {
        while try fill() > 0 {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// True when the server has closed the connection (EOF or reset) within the read timeout.
    public func waitForClose() -> Bool {
        while true {
            do {
                if try fill() == 0 { return true }
            } catch {
                return errno == ECONNRESET
            }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() > 0 else { throw TestConnectionError("closed after \(buffer.count) of \(count) body bytes") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil([13, 10])
            let size = Int(String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
            buffer.removeFirst(lineEnd + 2)
            if size == 0 {
                _ = try readUntil([13, 10])
                buffer.removeFirst(2)
                return body
            }
            body += try readExactly(size)
            _ = try readExactly(2)
        }
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searched = 0
        while true {
            if buffer.count >= marker.count {
                for start in searched...(buffer.count - marker.count) where buffer[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
                searched = buffer.count - marker.count + 1
            }
            guard try fill() > 0 else { throw TestConnectionError("closed before a complete response head") }
        }
    }

    @discardableResult
    private func fill() throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        // Child processes of other tests exiting deliver signals that interrupt a read: retry.
        while n < 0, errno == EINTR {
            n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        }
        if n < 0 {
            throw TestConnectionError(errno == EAGAIN || errno == EWOULDBLOCK ? "read timed out" : "read failed: errno \(errno)")
        }
        buffer += chunk[..<n]
        return n
    }
}

extension TestConnection {
    /// One request on a fresh connection.
    public static func fetch(
        port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> TestResponse {
        try TestConnection(port: port).request(method, target, headers: headers, body: body)
    }

    /// One GET on a fresh connection.
    public static func fetch(port: Int, _ target: String, headers: [(String, String)] = []) throws -> TestResponse {
        try fetch(port: port, "GET", target, headers: headers)
    }
}
