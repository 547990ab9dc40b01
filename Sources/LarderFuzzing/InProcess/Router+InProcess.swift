public import LarderHTTP

extension Router {
    /// The answer to `request` without a socket, as the server routes it once read: a lean route's
    /// handler given only what the lean path carries, else the matched route's handler with its
    /// captured parameters (awaited when it suspends), a 404, a 405, or a preflight's 204.
    /// Request-level refusals (limits, `Host`) and CORS headers are the server's and not applied.
    /// For checking whole pipelines in one process (the fuzz targets); lives here, not in LarderHTTP,
    /// since no server needs it.
    public func answer(_ request: Request) async -> Response {
        if let route = leanRoute(for: request) {
            return await Self.run(route.handler, route.request(from: request))
        }
        var request = request
        switch match(request.method, request.segments) {
        case .notFound:
            return HTTPError.notFound().response
        case .methodNotAllowed(let allow):
            return HTTPError.methodNotAllowed(request.method, allow: allow).response
        case .preflight(let policy, _):
            return policy.preflight(
                origin: request.headers["Origin"], method: request.headers["Access-Control-Request-Method"])
        case .found(let handler, let parameters, _, _):
            request.parameters = parameters
            return await Self.run(handler, request)
        }
    }

    /// The lean route the server would take for `request` (`RequestReader.readLean`): a GET or HEAD
    /// without a body of exactly its path, without a query unless the route reads one.
    func leanRoute(for request: Request) -> LeanRoute? {
        guard request.body.isEmpty else { return nil }
        var path = request.rawPath
        let route = path.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { leanRoute(request.method, rawPath: $0.baseAddress!, length: $0.count) }
        }
        guard let route, request.query.isEmpty || route.readsQuery else { return nil }
        return route
    }

    private static func run(_ handler: Handler, _ request: Request) async -> Response {
        switch handler {
        case .immediate(let handle):
            return handle(request)
        case .suspending(let handle):
            return await handle(request)
        case .adaptive(let decide):
            switch decide(request) {
            case .now(let response): return response
            case .later(let handle): return await handle(request)
            }
        }
    }
}

extension LeanRoute {
    /// `request` as the lean path carries it: the declared headers (the first field of each name, as
    /// libmicrohttpd looks them up), `If-Range` only with a `Range`, `Accept-Encoding` as `prefersGzip` only.
    func request(from request: Request) -> Request {
        var headers = HTTPHeaders()
        for name in self.headers {
            if let value = request.headers[name] { headers.add(name, value) }
        }
        if readsIfRange, headers["Range"] != nil, let value = request.headers[LeanRoute.ifRange] {
            headers.add(LeanRoute.ifRange, value)
        }
        var lean = Request(method: request.method, rawPath: text, segments: segments, query: request.query, headers: headers)
        lean.prefersGzip = readsAcceptEncoding && request.prefersGzip
        declare(&lean)
        return lean
    }
}

extension Response {
    /// The headers sent with the body (a prepared response's or a composed one's), without the
    /// server's own (`Content-Length`, CORS; `Date` where libmicrohttpd adds it).
    public var fields: HTTPHeaders {
        switch kind {
        case .composed(let headers, _): headers
        case .prepared(let prepared): prepared.headers
        }
    }

    /// What is sent after the headers (a prepared response's bytes as `.bytes`).
    public var body: ResponseBody {
        switch kind {
        case .composed(_, let body): body
        case .prepared(let prepared): .bytes(prepared.body)
        }
    }
}
