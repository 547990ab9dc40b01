import Glibc

/// Maps a method and decoded path segments to a handler; tells 404 from 405, and answers CORS preflights.
///
/// Patterns are `/`-separated: a literal segment, `:name` for one segment, or a final `*name` for
/// the rest of the path. The most specific route answers, whatever the order routes were added in:
/// segment by segment a literal ranks over a `:name` over a `*name`, and of two routes of one shape
/// the one with an `accepts` rule is tried first; two routes of one shape and method that this
/// cannot order stop the process when added. `HEAD` is answered by the `GET` route when there is no
/// `HEAD` route of its own (libmicrohttpd then omits the body).
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

    /// Every route, ranked; one object, retained once per request.
    private var routes = RankedRoutes()
    /// Lean routes by their path's length in bytes: a lookup compares the one or few paths of the
    /// request path's length, so it costs the same however many routes there are.
    private var leanRoutes: [[LeanRoute]] = []
    private var hasHeadRoutes = false
    /// Every route as it was added, in that order.
    package var registrations: [Registration] { routes.registrations }
    /// Every route's method and pattern, in the order they were added.
    public var table: [(method: HTTPMethod, pattern: String)] { registrations.map { ($0.method, $0.pattern) } }
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
        add(Registration(
            method: method, pattern: pattern, reads: headers, readsQuery: readsQuery, cors: cors, accepts: accepts,
            handler: handler))
    }

    /// Adds a route as `add(_:_:reads:readsQuery:cors:accepts:_:)` does: one of another router's
    /// `registrations`, so a route table can be added again in another order.
    package mutating func add(_ registration: Registration) {
        let (method, pattern, handler, cors) = (registration.method, registration.pattern, registration.handler, registration.cors)
        let route = Route(
            method: method, pattern: PathPattern(pattern), text: pattern, handler: handler, cors: cors,
            accepts: registration.accepts)
        // Ranked once here, so that matching only walks the routes in order.
        routes = routes.adding(route, as: registration)
        let segments = pattern.split(separator: "/").map(String.init)
        // Lean only when the path is literal: no other route can then rank over it for its path.
        let literal = !segments.contains { $0.hasPrefix(":") || $0.hasPrefix("*") || $0.contains("%") }
        if var headers = registration.reads, method == .get, literal {
            // A list of origins is answered by the request's Origin, so the lean request must carry it.
            if case .origins = cors { headers.append("Origin") }
            let length = pattern.utf8.count
            if leanRoutes.count <= length { leanRoutes += Array(repeating: [], count: length + 1 - leanRoutes.count) }
            leanRoutes[length].append(LeanRoute(
                path: Array(pattern.utf8CString), segments: segments, text: pattern, handler: handler, cors: cors,
                reads: headers, readsQuery: registration.readsQuery))
        }
        hasHeadRoutes = hasHeadRoutes || method == .head
        longestMethod = max(longestMethod, method.rawValue.utf8.count)
    }

    /// The lean route for a GET or HEAD of exactly this raw path (`length` bytes), if there is one.
    package func leanRoute(_ method: HTTPMethod, rawPath: UnsafePointer<CChar>, length: Int) -> LeanRoute? {
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
        let firstSegmentRoutes = segments.first.flatMap { routes.byFirstSegment[$0] } ?? []
        // Two passes rather than a joined sequence, which would allocate per request. Routes are
        // objects: a copy of one is a single retain, not one per field.
        for pass in 0..<2 {
            for route in pass == 0 ? firstSegmentRoutes : routes.others {
                guard let parameters = route.match(segments) else { continue }
                if route.method == method {
                    return .found(route.handler, parameters: parameters, route: route.text, cors: route.cors)
                }
                if method == .head, route.method == .get, getFallback == nil {
                    getFallback = .found(route.handler, parameters: parameters, route: route.text, cors: route.cors)
                }
                // A preflight belongs to the path's most specific route only: `/rates/refresh` is its POST
                // route's, even though `/rates/:date` would match it too.
                if method == .options, route.method == .get, route.cors != .none, allowed.isEmpty {
                    preflight = .preflight(route.cors, route: route.text)
                }
                allowed.append(route.method)
            }
        }
        if let match = getFallback ?? preflight { return match }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allow: allowed)
    }
}
