/// A GET route with a literal path and the headers its handler reads (see `Router.add`). A class: the
/// request takes it with one retain instead of a copy of every field.
package final class LeanRoute: Sendable {
    /// The path as a NUL-terminated C string, compared with libmicrohttpd's.
    let path: [CChar]
    package let segments: [String]
    package let text: String
    package let handler: Handler
    let cors: CORSPolicy
    /// The names the handler reads; neither `Accept-Encoding` nor `If-Range`, which are read on their own.
    package let headers: [String]
    /// Reads `Accept-Encoding` into `Request.prefersGzip`, from its bytes, without keeping its text.
    package let readsAcceptEncoding: Bool
    /// Reads `If-Range`, carried only with a `Range`: without one it means nothing (RFC 9110 §13.1.5),
    /// so a request without `Range` pays no lookup for it.
    package let readsIfRange: Bool
    /// The handler may be given a query: a GET with one is lean too.
    package let readsQuery: Bool
    /// What one pass over the request's fields picks: `headers`, then `If-Range`, then `Accept-Encoding`, as read.
    let pickNames: HeaderPickNames
    #if DEBUG
    let declared: DeclaredHeaders
    #endif

    init(
        path: [CChar], segments: [String], text: String, handler: Handler, cors: CORSPolicy, reads: [String],
        readsQuery: Bool
    ) {
        self.path = path
        self.segments = segments
        self.text = text
        self.handler = handler
        self.cors = cors
        let separate = [AcceptEncoding.header, LeanRoute.ifRange]
        let headers = reads.filter { name in !separate.contains { $0.caseInsensitiveEquals(name) } }
        self.headers = headers
        readsAcceptEncoding = reads.contains { $0.caseInsensitiveEquals(AcceptEncoding.header) }
        readsIfRange = reads.contains { $0.caseInsensitiveEquals(LeanRoute.ifRange) }
        self.readsQuery = readsQuery
        pickNames = HeaderPickNames(headers + (readsIfRange ? [LeanRoute.ifRange] : [])
            + (readsAcceptEncoding ? [AcceptEncoding.header] : []))
        #if DEBUG
        // What the lean request carries: Accept-Encoding is `prefersGzip` only.
        declared = DeclaredHeaders(route: text, names: headers + (readsIfRange ? [LeanRoute.ifRange] : []))
        #endif
    }

    package static let ifRange = "If-Range"

    /// Marks `request` as this route's in debug builds, so that reading an undeclared header traps; nothing in release.
    @inline(__always)
    package func declare(_ request: inout Request) {
        #if DEBUG
        request.headers.declared = declared
        #endif
    }
}
