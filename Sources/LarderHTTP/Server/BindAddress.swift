import Glibc

/// A resolved socket address to bind, kept in memory the server owns.
struct BindAddress: @unchecked Sendable {
    let storage: UnsafeMutablePointer<sockaddr_storage>
    let isIPv6: Bool

    /// Resolves `host` (a literal or a name) for a passive TCP socket on `port`.
    init(host: String, port: Int) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result, let address = first.pointee.ai_addr else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw .cannotResolve(host: host, reason: reason)
        }
        defer { freeaddrinfo(result) }
        storage = .allocate(capacity: 1)
        storage.initialize(to: sockaddr_storage())
        UnsafeMutableRawPointer(storage).copyMemory(from: address, byteCount: Int(first.pointee.ai_addrlen))
        isIPv6 = first.pointee.ai_family == AF_INET6
    }

    /// 127.0.0.0/8, `::1`, or an IPv4-mapped 127.x address: reachable from this machine only.
    var isLoopback: Bool {
        if isIPv6 {
            let bytes = UnsafeRawPointer(storage).assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_addr.__in6_u.__u6_addr8
            let prefix = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7, bytes.8, bytes.9]
            guard prefix.allSatisfy({ $0 == 0 }) else { return false }
            if (bytes.10, bytes.11) == (0xFF, 0xFF) { return bytes.12 == 127 }
            return (bytes.10, bytes.11, bytes.12, bytes.13, bytes.14) == (0, 0, 0, 0, 0) && bytes.15 == 1
        }
        let address = UnsafeRawPointer(storage).assumingMemoryBound(to: sockaddr_in.self).pointee.sin_addr.s_addr
        return UInt32(bigEndian: address) >> 24 == 127
    }

    var sockaddrPointer: UnsafePointer<sockaddr> {
        UnsafeRawPointer(storage).assumingMemoryBound(to: sockaddr.self)
    }

    var mutableSockaddrPointer: UnsafeMutablePointer<sockaddr> {
        UnsafeMutableRawPointer(storage).assumingMemoryBound(to: sockaddr.self)
    }

    func deallocate() {
        storage.deallocate()
    }
}
