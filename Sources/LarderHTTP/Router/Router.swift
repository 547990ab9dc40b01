import Glibc

/// Maps a method and decoded path segments to a handler; tells 404 from 405, and answers CORS preflights.
///
/// Patterns are `/`-separated: a literal segment, `:name` for one segment, or a final `*name` for
/// the rest of the path. Routes are tried in the order they were added. `HEAD` is answered by the
/// `GET` route when there is no `HEAD` route of its own (libmicrohttpd then omits the body).
public struct Router: Sendable {
    /// Decides whether a captured `:name` segment belongs to a route (`/:date` takes dates, not `/nowhere`).
    public typealias ParameterRule = @Sendable (_ name: String, _ value: String) -> Bool

    /// The outcome of matching a request.
    public enum Match: Sendable {
        /// `route` is the pattern that matched, as it was added (`/rates/:date`); `cors` its policy.
        case found(Handler, parameters: [String: String], route: String, cors: CORSPolicy)
        /// An `OPTIONS` for a path whose `GET` route allows other origins.
        case preflight(CORSPolicy, route: String)
        case methodNotAllowed(allow: [HTTPMethod])
        case notFound
    }

    private var routes: [Route] = []
    /// Lean routes by their path's length in bytes: a lookup compares the one or few paths of the
    /// request path's length, so it costs the same however many routes there are.
    private var leanRoutes: [[LeanRoute]] = []
    private var hasHeadRoutes = false
    /// Every route's method and pattern, in the order they were added.
    public private(set) var table: [(method: HTTPMethod, pattern: String)] = []
    /// The longest method answered (HEAD and OPTIONS always are): a longer one is 501 (RFC 9112 §3).
    private(set) var longestMethod = HTTPMethod.options.rawValue.utf8.count

    public init() {}

    /// Adds a route. `reads` names every header the handler reads when it reads no query either: a
    /// GET of its literal path is then answered without collecting every header or decoding the
    /// path, which is most of a small answer's cost (any other request takes the usual way, to the
    /// same handler). With `readsQuery`, `reads` names every header the handler reads whatever the
    /// query, and a GET with a query is lean too (its query decoded as on the usual way). `cors` says
    /// which web origins may read its answers; `accepts` narrows what its `:name` segments match.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, reads headers: [String]? = nil, readsQuery: Bool = false,
        cors: CORSPolicy = .none, accepts: ParameterRule? = nil, _ handler: Handler
    ) {
        let segments = pattern.split(separator: "/").map(String.init)
        // Lean only when the path is literal and no earlier route answers it: the outcome is the same either way.
        let literal = !segments.contains { $0.hasPrefix(":") || $0.hasPrefix("*") || $0.contains("%") }
        if var headers, method == .get, literal, case .notFound = match(.get, segments) {
            // A list of origins is answered by the request's Origin, so the lean request must carry it.
            if case .origins = cors { headers.append("Origin") }
            let length = pattern.utf8.count
            if leanRoutes.count <= length { leanRoutes += Array(repeating: [], count: length + 1 - leanRoutes.count) }
            leanRoutes[length].append(LeanRoute(
                path: Array(pattern.utf8CString), segments: segments, text: pattern, handler: handler, cors: cors,
                reads: headers, readsQuery: readsQuery))
        }
        table.append((method, pattern))
        routes.append(Route(
            method: method, pattern: PathPattern(pattern), text: pattern, handler: handler, cors: cors, accepts: accepts))
        hasHeadRoutes = hasHeadRoutes || method == .head
        longestMethod = max(longestMethod, method.rawValue.utf8.count)
    }

    /// The lean route for a GET or HEAD of exactly this raw path (`length` bytes), if there is one.
    func leanRoute(_ method: HTTPMethod, rawPath: UnsafePointer<CChar>, length: Int) -> LeanRoute? {
        guard method == .get || (method == .head && !hasHeadRoutes), length < leanRoutes.count else { return nil }
        for route in leanRoutes[length] {
            let same = route.path.withUnsafeBufferPointer { memcmp($0.baseAddress!, rawPath, length) == 0 }
            if same { return route }
        }
        return nil
    }

    public func match(_ method: HTTPMethod, _ segments: [String]) -> Match {
        var allowed: [HTTPMethod] = []
        var getFallback: Match?
        var preflight: Match?
        // Routes are objects: a copy of one is a single retain, not one per field.
        for route in routes {
            guard let parameters = route.match(segments) else { continue }
            if route.method == method {
                return .found(route.handler, parameters: parameters, route: route.text, cors: route.cors)
            }
            if method == .head, route.method == .get, getFallback == nil {
                getFallback = .found(route.handler, parameters: parameters, route: route.text, cors: route.cors)
            }
            // A preflight belongs to the first route of the path only: `/rates/refresh` is its POST
            // route's, even though `/rates/:date` would match it too.
            if method == .options, route.method == .get, route.cors != .none, allowed.isEmpty {
                preflight = .preflight(route.cors, route: route.text)
            }
            allowed.append(route.method)
        }
        if let match = getFallback ?? preflight { return match }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allow: allowed)
    }
}

/// A GET route with a literal path and the headers its handler reads (see `Router.add`). A class: the
/// request takes it with one retain instead of a copy of every field.
final class LeanRoute: Sendable {
    /// The path as a NUL-terminated C string, compared with libmicrohttpd's.
    let path: [CChar]
    let segments: [String]
    let text: String
    let handler: Handler
    let cors: CORSPolicy
    /// The names the handler reads, also NUL-terminated for libmicrohttpd (converted once, not per request);
    /// neither `Accept-Encoding` nor `If-Range`, which are read on their own.
    let headers: [(name: String, cName: [CChar])]
    /// Reads `Accept-Encoding` into `Request.prefersGzip`, from its bytes, without keeping its text.
    let readsAcceptEncoding: Bool
    /// Reads `If-Range`, carried only with a `Range`: without one it means nothing (RFC 9110 §13.1.5),
    /// so a request without `Range` pays no lookup for it.
    let readsIfRange: Bool
    /// The handler may be given a query: a GET with one is lean too.
    let readsQuery: Bool
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
        self.headers = headers.map { (name: $0, cName: Array($0.utf8CString)) }
        readsAcceptEncoding = reads.contains { $0.caseInsensitiveEquals(AcceptEncoding.header) }
        readsIfRange = reads.contains { $0.caseInsensitiveEquals(LeanRoute.ifRange) }
        self.readsQuery = readsQuery
        #if DEBUG
        // What the lean request carries: Accept-Encoding is `prefersGzip` only.
        declared = DeclaredHeaders(route: text, names: headers + (readsIfRange ? [LeanRoute.ifRange] : []))
        #endif
    }

    static let ifRange = "If-Range"

    /// Marks `request` as this route's in debug builds, so that reading an undeclared header traps; nothing in release.
    @inline(__always)
    func declare(_ request: inout Request) {
        #if DEBUG
        request.headers.declared = declared
        #endif
    }
}

/// One route; a class, so that matching takes each with one retain instead of a copy of every field.
private final class Route: Sendable {
    let method: HTTPMethod
    let pattern: PathPattern
    let text: String
    let handler: Handler
    let cors: CORSPolicy
    let accepts: Router.ParameterRule?

    init(
        method: HTTPMethod, pattern: PathPattern, text: String, handler: Handler, cors: CORSPolicy,
        accepts: Router.ParameterRule?
    ) {
        self.method = method
        self.pattern = pattern
        self.text = text
        self.handler = handler
        self.cors = cors
        self.accepts = accepts
    }

    func match(_ segments: [String]) -> [String: String]? {
        guard let parameters = pattern.match(segments) else { return nil }
        if let accepts, !parameters.allSatisfy({ accepts($0.key, $0.value) }) { return nil }
        return parameters
    }
}
