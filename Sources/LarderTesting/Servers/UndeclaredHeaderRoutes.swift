public import LarderHTTP

/// Two lean routes for checking what the lean path carries: `/sloppy` reads `X-Undeclared`, which it
/// does not declare (the lean path never carries it), and `/tidy` answers every header it was given.
public func undeclaredHeaderRoutes(_ router: inout Router) {
    router.add(.get, "/sloppy", reads: ["If-None-Match"], .immediate { request in
        Response(body: .string(request.headers["X-Undeclared"] ?? "absent"))
    })
    router.add(.get, "/tidy", reads: ["If-None-Match", "Range", "If-Range"], .immediate { request in
        Response(body: .string(request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ";")))
    })
}
