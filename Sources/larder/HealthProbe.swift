import Foundation
import Glibc

/// One `GET /health` over a plain socket with a deadline: connect, send, read the status line.
enum HealthProbe {
    struct Problem: Error {
        let message: String
    }

    static func check(host: String, port: Int, timeout: Duration) -> Result<Void, Problem> {
        let deadline = ContinuousClock.now + timeout
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            return .failure(Problem(message: "cannot resolve \(host)"))
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, 0)
        guard socket >= 0 else { return .failure(Problem(message: "cannot open a socket")) }
        defer { close(socket) }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        if connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0, errno != EINPROGRESS {
            return .failure(Problem(message: "cannot connect to \(host):\(port): \(String(cString: strerror(errno)))"))
        }
        guard wait(socket, for: Int16(POLLOUT), until: deadline) else {
            return .failure(Problem(message: "no connection to \(host):\(port) within \(timeout)"))
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else {
            return .failure(Problem(message: "cannot connect to \(host):\(port): \(String(cString: strerror(error)))"))
        }
        // HTTP/1.0 without a Host: served whatever --allowed-hosts lists (SPEC §6), and no Host to get wrong.
        let request = Array("GET /health HTTP/1.0\r\n\r\n".utf8)
        guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            return .failure(Problem(message: "cannot send the request"))
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !answer.contains(UInt8(ascii: "\n")) {
            guard wait(socket, for: Int16(POLLIN), until: deadline) else {
                return .failure(Problem(message: "no answer from \(host):\(port) within \(timeout)"))
            }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            guard count > 0 else { break }
            answer += buffer[..<count]
        }
        let statusLine = String(decoding: answer.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else {
            return .failure(Problem(message: "not an HTTP answer from \(host):\(port)"))
        }
        guard parts[1] == "200" else {
            return .failure(Problem(message: "/health answered \(parts[1]), not 200"))
        }
        return .success(())
    }

    private static func wait(_ socket: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0, errno == EINTR { continue }
            if ready == 0 { return false }
            return false
        }
    }
}
