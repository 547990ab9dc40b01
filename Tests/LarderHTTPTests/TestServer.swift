import LarderHTTP
import LarderTesting
import Logging

/// Starts an in-process server on an ephemeral loopback port with the routes a test needs.
func startServer(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    routes: (inout Router) -> Void
) throws -> HTTPServer {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.threads = 2
    configure(&configuration)
    var router = Router()
    routes(&router)
    let server = HTTPServer(
        configuration: configuration, router: router,
        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    try server.start()
    return server
}

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

/// Runs `body` against a started server and always stops it afterwards.
func withServer<T>(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    routes: (inout Router) -> Void,
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    let server = try startServer(configure, routes: routes)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
