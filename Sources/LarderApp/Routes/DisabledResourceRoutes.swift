import LarderHTTP

/// The routes of a resource Larder does not serve: a JSON 404 when its upstream URL is not set
/// (SPEC §2), or a JSON 501 when it is set but this build does not have the feature yet.
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

    func register(on router: inout Router, configured: Bool) {
        let error = configured
            ? HTTPError(
                .notImplemented, code: "not_implemented",
                message: "\(name) are configured, but this build of larder does not serve them yet")
            : HTTPError(
                .notFound, code: "not_configured",
                message: "\(name) are not configured: start larder with \(flag) (or LARDER_\(name.uppercased())_URL)")
        for (method, path) in routes {
            router.add(method, path, .immediate { _ in error.response })
        }
    }
}
