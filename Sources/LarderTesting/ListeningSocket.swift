import Glibc

/// A listening TCP socket on 127.0.0.1, at `port` or (0) one the kernel picks; closed when dropped.
public final class ListeningSocket: Sendable {
    public let descriptor: Int32
    public let port: Int

    public init(port requested: Int = 0, backlog: Int32 = 16) throws {
        raiseOpenFileLimit()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestConnectionError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(requested).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw TestConnectionError("bind/listen: errno \(errno)")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}

/// A loopback port nothing listens on: bound once by the kernel's choice, then released.
public func freePort() throws -> Int {
    let socket = try ListeningSocket(backlog: 1)
    return socket.port
}

