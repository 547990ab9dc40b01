import Glibc
public import LarderHTTP

/// The validators and type of a file on disk, as its answers declare them.
public struct FileRepresentation: Sendable, Equatable {
    /// The `Content-Type` to send (already through `ContentTypePolicy`).
    public let contentType: String
    /// A strong entity tag, quotes included: `"…"`.
    public let etag: String
    /// Seconds since 1970.
    public let lastModified: Int

    /// The `Content-Encoding` of the bytes (`gzip`), nil for identity.
    public let encoding: String?
    /// True when another encoding of the same resource exists: every answer then says `Vary: Accept-Encoding`.
    public let variesByEncoding: Bool

    public init(contentType: String, etag: String, lastModified: Int, encoding: String? = nil, variesByEncoding: Bool = false) {
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.encoding = encoding
        self.variesByEncoding = variesByEncoding
    }
}

/// Where a file answer's bytes come from.
public enum FileSource: Sendable {
    /// An open descriptor of a file of `size` bytes, owned by the answer: sent with sendfile.
    case descriptor(Int32, size: UInt64)
    /// The whole file mapped once and shared by its answers: sent from the page cache without a copy.
    case mapped(SharedBytes)

    var size: UInt64 {
        switch self {
        case .descriptor(_, let size): size
        case .mapped(let bytes): UInt64(bytes.count)
        }
    }

    /// Lets go of a descriptor the answer will not send.
    func discard() {
        if case .descriptor(let descriptor, _) = self { close(descriptor) }
    }

    func body(offset: UInt64, length: UInt64) -> ResponseBody {
        switch self {
        case .descriptor(let descriptor, _):
            .file(FileRegion(descriptor: descriptor, offset: offset, length: length))
        case .mapped(let bytes):
            .slice(bytes, offset: Int(offset), length: Int(length))
        }
    }
}

/// Answers `GET`/`HEAD` for a file: 304, a single-range 206 or 416, or 200, with the body sent by
/// libmicrohttpd with sendfile or from a mapping, never copied through Swift.
public enum FileAnswer {
    /// The request headers an answer reads, for lean routes to collect (`Router.add(_:_:reads:_:)`):
    /// a prepared answer's and `If-Range`, as ranges are answered here.
    public static let requestHeaders = PreparedAnswer.requestHeaders + ["If-Range"]

    /// The answer to `request` for the `size` bytes of `descriptor`.
    ///
    /// Takes ownership of `descriptor`: the response closes it after sending, and this closes it at
    /// once when the answer sends no file (304, 416, an empty file). `size` must be the file's size
    /// (from `fstat` on the same descriptor): a shorter file cuts the connection mid-body.
    /// `HEAD` gets the same status and headers, `Content-Length` included; libmicrohttpd omits the body.
    public static func response(
        for request: Request, descriptor: Int32, size: UInt64, representation: FileRepresentation, state: CacheState
    ) -> Response {
        response(for: request, source: .descriptor(descriptor, size: size), representation: representation, state: state)
    }

    /// The answer to `request` for the file `source` holds (a descriptor is owned as above).
    public static func response(
        for request: Request, source: FileSource, representation: FileRepresentation, state: CacheState
    ) -> Response {
        let size = source.size
        var headers = commonHeaders(representation, state)
        // If-None-Match and If-Modified-Since come before Range (RFC 9110 §13.2.2).
        if ConditionalRequest.isNotModified(
            request.headers, etag: representation.etag, lastModified: representation.lastModified)
        {
            source.discard()
            return Response(status: .notModified, headers: headers)
        }
        switch requestedRange(request, representation, size: size) {
        case .unsatisfiable:
            source.discard()
            headers.add("Content-Range", "bytes */\(size)")
            return HTTPError(
                .rangeNotSatisfiable, code: "range_not_satisfiable",
                message: "the requested range is outside the document's \(size) bytes", headers: headers
            ).response
        case .satisfiable(let offset, let length):
            headers.add("Content-Type", representation.contentType)
            if let encoding = representation.encoding { headers.add("Content-Encoding", encoding) }
            headers.add("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(size)")
            return Response(status: .partialContent, headers: headers, body: source.body(offset: offset, length: length))
        case .none:
            headers.add("Content-Type", representation.contentType)
            if let encoding = representation.encoding { headers.add("Content-Encoding", encoding) }
            guard size > 0 else {
                // Nothing to send: skip sendfile altogether.
                source.discard()
                return Response(status: .ok, headers: headers)
            }
            return Response(status: .ok, headers: headers, body: source.body(offset: 0, length: size))
        }
    }

    /// The range to answer: the `Range` header's, unless an `If-Range` says the client's copy differs.
    static func requestedRange(_ request: Request, _ representation: FileRepresentation, size: UInt64) -> ByteRange {
        // Several Range fields are one comma-separated list (RFC 9110 §5.3), hence several ranges: ignored.
        let fields = request.headers.filter { $0.name.lowercased() == "range" }
        guard let first = fields.first else { return .none }
        if let ifRange = request.headers["If-Range"], !ifRangeHolds(ifRange, representation) {
            return .none
        }
        return ByteRange(fields.count == 1 ? first.value : fields.map(\.value).joined(separator: ","), size: size)
    }

    /// `If-Range` (RFC 9110 §13.1.5): an entity tag compared strongly, or a date equal to `Last-Modified`.
    static func ifRangeHolds(_ value: String, _ representation: FileRepresentation) -> Bool {
        let validator = trimmed(value)
        if validator.hasPrefix("\"") || validator.hasPrefix("W/") {
            // Strong comparison: a weak tag on either side never matches.
            return !validator.hasPrefix("W/") && !representation.etag.hasPrefix("W/") && validator == representation.etag
        }
        guard let date = HTTPDate.parse(String(validator)) else { return false }
        return date == representation.lastModified
    }

    /// The headers every answer carries, 304 and 416 included.
    private static func commonHeaders(_ representation: FileRepresentation, _ state: CacheState) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "ETag": representation.etag,
            "Last-Modified": HTTPDate.format(secondsSince1970: representation.lastModified),
        ]
        for field in state.headers() {
            headers.add(field.name, field.value)
        }
        headers.add("Accept-Ranges", "bytes")
        if representation.variesByEncoding { headers.add("Vary", AcceptEncoding.header) }
        headers.add("X-Content-Type-Options", "nosniff")
        if ContentTypePolicy.needsSandbox(representation.contentType) {
            headers.add("Content-Security-Policy", "sandbox")
        }
        return headers
    }

    private static func trimmed(_ text: String) -> Substring {
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
