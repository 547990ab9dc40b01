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

    var sockaddrPointer: UnsafePointer<sockaddr> {
        UnsafeRawPointer(storage).assumingMemoryBound(to: sockaddr.self)
    }

    func deallocate() {
        storage.deallocate()
    }
}
