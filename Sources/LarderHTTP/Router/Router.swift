import Glibc

/// Maps a method and decoded path segments to a handler; tells 404 from 405.
///
/// Patterns are `/`-separated: a literal segment, `:name` for one segment, or a final `*name` for
/// the rest of the path. Routes are tried in the order they were added. `HEAD` is answered by the
/// `GET` route when there is no `HEAD` route of its own (libmicrohttpd then omits the body).
public struct Router: Sendable {
    /// The outcome of matching a request.
    public enum Match: Sendable {
        /// `route` is the pattern that matched, as it was added (`/rates/:date`).
        case found(Handler, parameters: [String: String], route: String)
        case methodNotAllowed(allow: [HTTPMethod])
        case notFound
    }

    private var routes: [Route] = []
    private var leanRoutes: [LeanRoute] = []
    private var hasHeadRoutes = false

    public init() {}

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        routes.append(Route(method: method, pattern: PathPattern(pattern), text: pattern, handler: handler))
        hasHeadRoutes = hasHeadRoutes || method == .head
    }

    /// Adds a route whose handler reads no header but `headers` (and no query): a GET of its literal
    /// path is then answered without collecting every header or decoding the path, which is most of
    /// a small answer's cost. Any other request to it takes the usual way, to the same handler.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, reads headers: [String], _ handler: Handler) {
        let segments = pattern.split(separator: "/").map(String.init)
        // Lean only when the path is literal and no earlier route answers it: the outcome is the same either way.
        let literal = !segments.contains { $0.hasPrefix(":") || $0.hasPrefix("*") || $0.contains("%") }
        if method == .get, literal, case .notFound = match(.get, segments) {
            leanRoutes.append(LeanRoute(
                path: Array(pattern.utf8CString), segments: segments, text: pattern, handler: handler,
                headers: headers.map { (name: $0, cName: Array($0.utf8CString)) }))
        }
        add(method, pattern, handler)
    }

    /// The lean route for a GET or HEAD of exactly this raw path, if there is one.
    func leanRoute(_ method: HTTPMethod, rawPath: UnsafePointer<CChar>) -> LeanRoute? {
        guard method == .get || (method == .head && !hasHeadRoutes) else { return nil }
        for index in leanRoutes.indices {
            let same = leanRoutes[index].path.withUnsafeBufferPointer { strcmp($0.baseAddress!, rawPath) == 0 }
            if same { return leanRoutes[index] }
        }
        return nil
    }

    public func match(_ method: HTTPMethod, _ segments: [String]) -> Match {
        var allowed: [HTTPMethod] = []
        var getFallback: (Handler, [String: String], String)?
        // By index: iterating copies would retain every route's fields on each request.
        for index in routes.indices {
            guard let parameters = routes[index].pattern.match(segments) else { continue }
            let route = routes[index]
            if route.method == method {
                return .found(route.handler, parameters: parameters, route: route.text)
            }
            if method == .head, route.method == .get, getFallback == nil {
                getFallback = (route.handler, parameters, route.text)
            }
            allowed.append(route.method)
        }
        if let (handler, parameters, text) = getFallback {
            return .found(handler, parameters: parameters, route: text)
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allow: allowed)
    }
}

/// A GET route with a literal path and the headers its handler reads (see `add(_:_:reads:_:)`).
struct LeanRoute: Sendable {
    /// The path as a NUL-terminated C string, compared with libmicrohttpd's.
    let path: [CChar]
    let segments: [String]
    let text: String
    let handler: Handler
    /// The names the handler reads, also NUL-terminated for libmicrohttpd (converted once, not per request).
    let headers: [(name: String, cName: [CChar])]
}

private struct Route: Sendable {
    let method: HTTPMethod
    let pattern: PathPattern
    let text: String
    let handler: Handler
}
