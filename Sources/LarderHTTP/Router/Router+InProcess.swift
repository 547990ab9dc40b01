extension Router {
    /// The answer to `request` without a socket, as the server routes it once read: the matched
    /// route's handler with its captured parameters (awaited when it suspends), a 404, a 405, or a
    /// preflight's 204. Request-level refusals (limits, `Host`) and CORS headers are the server's and
    /// not applied. For checking whole pipelines in one process (the fuzz targets).
    public func answer(_ request: Request) async -> Response {
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
}

extension Response {
    /// The headers sent with the body (a prepared response's or a composed one's), without the
    /// server's own (`Date`, `Content-Length`, CORS).
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
