/// A router's routes, most specific first (`Route.precedes`), and the same order split for matching.
/// Immutable, and one object: the server hands its `Router` to every request, so each field of the
/// router is a retain per request, and adding a route makes a new one.
final class RankedRoutes: Sendable {
    /// Every route, most specific first.
    let all: [Route]
    /// The routes whose first segment is literal, by that segment, and the others (`:name`, `*name`,
    /// `/`), each in `all`'s order: a path is tried against its first segment's few routes, then the
    /// others, which is `all`'s order without the routes that cannot match it.
    let byFirstSegment: [String: [Route]]
    let others: [Route]
    /// Every route as it was added, in that order.
    let registrations: [Router.Registration]

    init(_ all: [Route] = [], registrations: [Router.Registration] = []) {
        self.all = all
        byFirstSegment = Dictionary(grouping: all.filter { $0.pattern.firstLiteral != nil }) { $0.pattern.firstLiteral! }
        others = all.filter { $0.pattern.firstLiteral == nil }
        self.registrations = registrations
    }

    /// These routes and `route`, at its rank; stops the process when it is ambiguous with one of them
    /// (in release builds too: a route that silently never answers would be found only in production).
    func adding(_ route: Route, as registration: Router.Registration) -> RankedRoutes {
        var index = all.endIndex
        for (position, other) in all.enumerated() {
            guard let first = route.precedes(other) else {
                fatalError("""
                    Router: \(route.method) \(route.text) and \(other.method) \(other.text) are ambiguous (one shape, \
                    one method): make a segment literal, or give the narrower one an accepts rule
                    """)
            }
            if first {
                index = position
                break
            }
        }
        var routes = all
        routes.insert(route, at: index)
        return RankedRoutes(routes, registrations: registrations + [registration])
    }
}
