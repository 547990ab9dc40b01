import CMicroHTTPD
import Synchronization

/// A libmicrohttpd response built once — body and headers — and queued by many requests at once.
///
/// libmicrohttpd counts references to a queued response, so dropping this box while connections
/// still send it is safe: the last of them frees it, and the bytes with it.
public final class PreparedResponse: @unchecked Sendable {
    /// Nil when libmicrohttpd could not allocate it: the server then answers its allocation-failure 503.
    let pointer: OpaquePointer?
    public let status: HTTPStatus
    /// What the response was built from, for tests that check a route without a socket.
    public let headers: HTTPHeaders
    public let body: SharedBytes
    /// Sent corked (`ResponseBody.isCorked`), decided once here rather than on every request.
    let isCorked: Bool
    /// The same response with each CORS variant's headers added, built on first use (a policy has
    /// few variants: `*`, "not allowed", and one per listed origin) and kept as long as this one.
    private let corsVariants = Mutex<[Int: UncheckedPointer]>([:])
    /// The `*` variant, the one nearly every request asks for, readable without the lock once made.
    private let anyOriginVariant = Atomic<UnsafeMutableRawPointer?>(nil)

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders, body: SharedBytes) {
        self.status = status
        self.headers = headers
        self.body = body
        isCorked = ResponseBody.bytes(body).isCorked
        pointer = MHDResponses.make(headers: headers, body: .bytes(body))
    }

    /// The response carrying `policy`'s headers for `variant`; nil when it could not be allocated.
    func pointer(for variant: CORSVariant, of policy: CORSPolicy) -> OpaquePointer? {
        if variant == .anyOrigin, let made = anyOriginVariant.load(ordering: .acquiring) {
            return OpaquePointer(made)
        }
        let made = corsVariants.withLock { variants -> OpaquePointer? in
            if let made = variants[variant.slot] { return made.pointer }
            var fields = headers
            for field in policy.headers(variant) { fields.add(field.name, field.value) }
            // Not kept when it failed: a later request tries again.
            guard let made = MHDResponses.make(headers: fields, body: .bytes(body)) else { return nil }
            variants[variant.slot] = UncheckedPointer(pointer: made)
            return made
        }
        guard let made else { return nil }
        // Published only after the dictionary owns it (deinit destroys it from there, once).
        if variant == .anyOrigin { anyOriginVariant.store(UnsafeMutableRawPointer(made), ordering: .releasing) }
        return made
    }

    deinit {
        if let pointer { MHD_destroy_response(pointer) }
        for variant in corsVariants.withLock({ $0.values }) {
            MHD_destroy_response(variant.pointer)
        }
    }
}

/// A libmicrohttpd response pointer kept under a lock (libmicrohttpd's responses are thread-safe to queue).
private struct UncheckedPointer: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Turns Swift response bodies into libmicrohttpd responses without copying their bytes; nil when
/// libmicrohttpd cannot allocate one (whatever the body held is then let go: bytes released, a
/// file's descriptor still owned by its `OwnedDescriptor`).
enum MHDResponses {
    /// A composed response's; nil for a prepared one (it has its own).
    static func make(_ response: Response) -> OpaquePointer? {
        guard case .composed(let headers, let body) = response.kind else { return nil }
        return make(headers: headers, body: body)
    }

    static func make(headers: HTTPHeaders, body: ResponseBody) -> OpaquePointer? {
        guard let response = makeBody(body) else { return nil }
        for field in headers {
            MHD_add_response_header(response, field.name, field.value)
        }
        return response
    }

    /// A response over shared bytes, holding a retain on them until libmicrohttpd frees it; large
    /// bodies in an answer file go by sendfile from a descriptor of the response's own instead.
    private static func makeShared(_ bytes: SharedBytes, offset: Int, length: Int) -> OpaquePointer? {
        if bytes.sendsFromAnswerFile(length: length) {
            // libmicrohttpd closes the descriptor it is given with the response.
            let descriptor = dup(bytes.answerFile)
            if descriptor >= 0 {
                if let response = MHD_create_response_from_fd_at_offset64(UInt64(length), descriptor, UInt64(offset)) {
                    return response
                }
                close(descriptor)
            }
        }
        let retained = Unmanaged.passRetained(bytes).toOpaque()
        guard let response = MHD_create_response_from_buffer_with_free_callback_cls(
            length, bytes.base + offset, releaseSharedBytes, retained
        ) else {
            releaseSharedBytes(retained)
            return nil
        }
        return response
    }

    private static func makeBody(_ body: ResponseBody) -> OpaquePointer? {
        switch body {
        case .empty:
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            return makeShared(bytes, offset: 0, length: bytes.count)
        case .slice(let bytes, let offset, let length):
            precondition(offset >= 0 && length >= 0 && offset + length <= bytes.count, "a slice past its bytes")
            return makeShared(bytes, offset: offset, length: length)
        case .file(let region):
            // libmicrohttpd closes the descriptor with the response it made; without one, it stays the owner's.
            var response: OpaquePointer?
            _ = region.file.handOver { descriptor in
                response = MHD_create_response_from_fd_at_offset64(region.length, descriptor, region.offset)
                return response != nil
            }
            return response
        case .stream(let stream):
            let retained = Unmanaged.passRetained(stream).toOpaque()
            guard let response = MHD_create_response_from_callback(
                stream.length ?? UInt64.max, 64 * 1024, readStream, retained, releaseStream
            ) else {
                releaseStream(retained)
                return nil
            }
            return response
        }
    }
}

// libmicrohttpd calls these on its own threads; they only touch the object they were given.

private func releaseSharedBytes(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<SharedBytes>.fromOpaque(context).release()
}

private func releaseStream(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<StreamBody>.fromOpaque(context).release()
}

private func readStream(
    _ context: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int
) -> Int {
    guard let context, let buffer else { return MHDStreamResult.endWithError }
    let stream = Unmanaged<StreamBody>.fromOpaque(context).takeUnretainedValue()
    switch stream.read(position, UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
    case .wrote(let count): return count
    case .end: return MHDStreamResult.endOfStream
    case .abort: return MHDStreamResult.endWithError
    }
}

/// libmicrohttpd's `MHD_CONTENT_READER_END_*` values, which are macros Swift does not import.
private enum MHDStreamResult {
    static let endOfStream = -1
    static let endWithError = -2
}
