import CMicroHTTPD

/// A libmicrohttpd response built once — body and headers — and queued by many requests at once.
///
/// libmicrohttpd counts references to a queued response, so dropping this box while connections
/// still send it is safe: the last of them frees it, and the bytes with it.
public final class PreparedResponse: @unchecked Sendable {
    let pointer: OpaquePointer
    public let status: HTTPStatus

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders, body: SharedBytes) {
        self.status = status
        pointer = MHDResponses.make(headers: headers, body: .bytes(body))
    }

    deinit {
        MHD_destroy_response(pointer)
    }
}

/// Turns Swift response bodies into libmicrohttpd responses without copying their bytes.
enum MHDResponses {
    static func make(headers: HTTPHeaders, body: ResponseBody) -> OpaquePointer {
        let response = makeBody(body)
        for field in headers {
            MHD_add_response_header(response, field.name, field.value)
        }
        return response
    }

    /// A response over shared bytes, holding a retain on them until libmicrohttpd frees it.
    private static func makeShared(_ bytes: SharedBytes, offset: Int, length: Int) -> OpaquePointer {
        let retained = Unmanaged.passRetained(bytes).toOpaque()
        guard let response = MHD_create_response_from_buffer_with_free_callback_cls(
            length, bytes.base + offset, releaseSharedBytes, retained
        ) else { fatalError("libmicrohttpd could not allocate a response") }
        return response
    }

    private static func makeBody(_ body: ResponseBody) -> OpaquePointer {
        switch body {
        case .empty:
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            return makeShared(bytes, offset: 0, length: bytes.count)
        case .slice(let bytes, let offset, let length):
            precondition(offset >= 0 && length >= 0 && offset + length <= bytes.count, "a slice past its bytes")
            return makeShared(bytes, offset: offset, length: length)
        case .file(let region):
            guard let response = MHD_create_response_from_fd_at_offset64(
                region.length, region.descriptor, region.offset
            ) else { fatalError("libmicrohttpd refused a file response of \(region.length) bytes") }
            return response
        case .stream(let stream):
            let retained = Unmanaged.passRetained(stream).toOpaque()
            guard let response = MHD_create_response_from_callback(
                stream.length ?? UInt64.max, 64 * 1024, readStream, retained, releaseStream
            ) else { fatalError("libmicrohttpd could not allocate a stream response") }
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
