import LarderHTTP

/// A few routes most tests share.
func standardRoutes(_ router: inout Router) {
    let hello = PreparedResponse(headers: ["Content-Type": "text/plain"], body: SharedBytes("hello\n"))
    router.add(.get, "/hello", .immediate { _ in Response(prepared: hello) })
    router.add(.get, "/items/:id", .immediate { request in
        Response(body: .string(request.parameters["id"] ?? "-"))
    })
    router.add(.get, "/files/*path", .immediate { request in
        Response(body: .string(request.parameters["path"] ?? "-"))
    })
    router.add(.post, "/echo", .immediate { request in
        Response(headers: ["Content-Type": "application/octet-stream"], body: .bytes(SharedBytes(request.body)))
    })
    router.add(.get, "/query", .immediate { request in
        Response(body: .string(request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")))
    })
}
