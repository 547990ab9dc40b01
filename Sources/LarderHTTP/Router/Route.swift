extension Router {
    /// The arguments of one `add`.
    package struct Registration: Sendable {
        package let method: HTTPMethod
        package let pattern: String
        package let reads: [String]?
        package let readsQuery: Bool
        package let cors: CORSPolicy
        package let accepts: ParameterRule?
        package let handler: Handler
    }
}

/// One route; a class, so that matching takes each with one retain instead of a copy of every field.
final class Route: Sendable {
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

    /// Whether this route is tried before `other`, nil when the two cannot be ordered: of one shape,
    /// the route with an `accepts` rule first (it takes less), then by method, which only orders the
    /// methods a 405 lists.
    func precedes(_ other: Route) -> Bool? {
        if let first = pattern.precedes(other.pattern) { return first }
        if (accepts == nil) != (other.accepts == nil) { return accepts != nil }
        if method != other.method { return method.rawValue < other.method.rawValue }
        return nil
    }

    func match(_ segments: [String]) -> [String: String]? {
        guard let parameters = pattern.match(segments) else { return nil }
        if let accepts, !parameters.allSatisfy({ accepts($0.key, $0.value) }) { return nil }
        return parameters
    }
}
