public import LarderHTTP

/// Answers a request from a representation: 304 when the client's validators match, else the body.
public enum CachedAnswer {
    /// A response composed for this request (for answers that are not on the hot path).
    public static func response(
        for request: Request, _ representation: Representation, _ state: CacheState, immutable: Bool = false
    ) -> Response {
        let notModified = ConditionalRequest.isNotModified(
            request.headers, etag: representation.etag, lastModified: representation.lastModified)
        var headers = validators(representation, state, immutable: immutable)
        if notModified {
            return Response(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", representation.contentType)
        return Response(status: .ok, headers: headers, body: .bytes(representation.body))
    }

    /// `ETag`, `Last-Modified` and the cache headers, shared by the 200 and the 304.
    static func validators(_ representation: Representation, _ state: CacheState, immutable: Bool) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "ETag": representation.etag,
            "Last-Modified": representation.lastModifiedText,
        ]
        for field in state.headers(immutable: immutable) {
            headers.add(field.name, field.value)
        }
        return headers
    }
}
