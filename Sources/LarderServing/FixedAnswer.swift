public import LarderHTTP

/// A body that does not change while it is kept (a rendered status page, an index, an OpenAPI
/// document): its 200 and its 304 prepared once, with a strong `ETag` and the given header fields.
public final class FixedAnswer: Sendable {
    public let etag: String
    public let ok: PreparedResponse
    public let notModified: PreparedResponse
    public var byteCount: Int { ok.body.count }

    public init(_ bytes: [UInt8], contentType: String, headers fields: HTTPHeaders) {
        etag = Representation.etag(for: bytes)
        var headers = fields
        headers.add("ETag", etag)
        notModified = PreparedResponse(status: .notModified, headers: headers, body: SharedBytes([]))
        headers.add("Content-Type", contentType)
        ok = PreparedResponse(status: .ok, headers: headers, body: SharedBytes(bytes))
    }

    /// A JSON body cached downstream as Frankfurter caches its own: `public, max-age=86400`.
    public convenience init(json bytes: [UInt8], headers fields: HTTPHeaders = [:]) {
        var headers = fields
        headers.add("Cache-Control", "public, max-age=86400")
        self.init(bytes, contentType: "application/json", headers: headers)
    }

    /// 304 when the client's `If-None-Match` names this body.
    public func response(for request: Request) -> Response {
        let current = ConditionalRequest.isNotModified(request.headers, etag: etag, lastModified: nil)
        return Response(prepared: current ? notModified : ok)
    }
}
