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

    public init() {}

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        routes.append(Route(method: method, pattern: PathPattern(pattern), text: pattern, handler: handler))
    }

    public func match(_ method: HTTPMethod, _ segments: [String]) -> Match {
        var allowed: [HTTPMethod] = []
        var getFallback: (Handler, [String: String], String)?
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
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

private struct Route: Sendable {
    let method: HTTPMethod
    let pattern: PathPattern
    let text: String
    let handler: Handler
}
