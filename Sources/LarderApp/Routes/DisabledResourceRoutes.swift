import LarderHTTP

/// The routes of a resource whose upstream URL is not set: a JSON 404 saying so (SPEC §2).
struct DisabledResourceRoutes {
    let name: String
    let flag: String
    let routes: [(HTTPMethod, String)]

    static let rates = DisabledResourceRoutes(
        name: "rates", flag: "--rates-url",
        routes: [(.get, "/rates"), (.get, "/rates/:date"), (.post, "/rates/refresh"), (.get, "/currencies")]
    )

    static let documents = DisabledResourceRoutes(
        name: "documents", flag: "--documents-url",
        routes: [(.get, "/documents"), (.get, "/documents/:name"), (.post, "/documents/refresh")]
    )

    func register(on router: inout Router) {
        let error = HTTPError(
            .notFound, code: "not_configured",
            message: "\(name) are not configured: start larder with \(flag) (or LARDER_\(name.uppercased())_URL)")
        for (method, path) in routes {
            router.add(method, path, .immediate { _ in error.response })
        }
    }
}
