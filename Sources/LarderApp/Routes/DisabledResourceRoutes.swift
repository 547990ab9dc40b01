import LarderHTTP
import LarderRates
import LarderServing

/// The routes of a resource whose upstream URL is not set: a JSON 404 saying so (SPEC §2).
struct DisabledResourceRoutes {
    let resource: CacheResource
    let flag: String
    let routes: [(HTTPMethod, String)]
    /// Which `:name` segments the routes claim (the Frankfurter routes take date-shaped ones only).
    var accepts: Router.ParameterRule?

    static let rates = DisabledResourceRoutes(
        resource: .rates, flag: "--rates-url",
        routes: [
            (.post, "/rates/refresh"), (.get, "/rates"), (.get, "/rates/:date"), (.get, "/currencies"),
            (.get, "/latest"), (.get, "/current"), (.get, "/v1/latest"), (.get, "/v1/current"), (.get, "/v1/currencies"),
            (.get, "/:date"), (.get, "/v1/:date"),
        ],
        accepts: { name, value in name != "date" || DateSelection.looksLikeSelection(value) }
    )

    static let documents = DisabledResourceRoutes(
        resource: .documents, flag: "--documents-url",
        routes: [(.get, "/documents"), (.get, "/documents/:name"), (.post, "/documents/refresh")]
    )

    func register(on router: inout Router) {
        let name = resource.rawValue
        let error = HTTPError(
            .notFound, code: "not_configured",
            message: "\(name) are not configured: start larder with \(flag) (or LARDER_\(name.uppercased())_URL)")
        for (method, path) in routes {
            // `/rates/:date` answers for any segment, as when configured; the root takes dates only.
            let rule = path.hasPrefix("/rates") ? nil : accepts
            router.add(method, path, accepts: rule, .immediate { _ in error.response })
        }
    }
}
