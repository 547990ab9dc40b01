public import LarderHTTP

/// Runs `body` against a LarderHTTP server on a loopback port the kernel picks, answering `routes`,
/// and stops it on every exit path. `configure` changes the test defaults (two threads); a test of
/// stopping may stop the server itself first, since stopping twice does nothing.
///
/// ```swift
/// try await withServer(configure: { $0.threads = 1 }, routes: { $0.add(.get, "/hi", handler) }) { server in
///     let response = try await onThread { try TestConnection.fetch(port: server.port, "/hi") }
/// }
/// ```
public func withServer<T: Sendable>(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    routes: (inout Router) -> Void,
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.threads = 2
    configure(&configuration)
    var router = Router()
    routes(&router)
    let server = HTTPServer(configuration: configuration, router: router, logger: quietLogger)
    // Binding and starting libmicrohttpd's threads: on a thread of its own (see `onThread`).
    try await onThread { try server.start() }
    return try await withCleanup { try await body(server) } cleanup: { await server.stop() }
}

