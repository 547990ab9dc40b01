import LarderHTTP

/// The header fields every answer from a representation carries, 200 and 304 alike.
enum CachedAnswer {
    /// `ETag`, `Last-Modified` and the cache headers; `etag` is the encoding's own.
    static func validators(
        _ representation: Representation, _ state: CacheState, immutable: Bool, etag: String
    ) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "ETag": etag,
            "Last-Modified": representation.lastModifiedText,
        ]
        for field in state.headers(immutable: immutable) {
            headers.add(field.name, field.value)
        }
        return headers
    }
}
