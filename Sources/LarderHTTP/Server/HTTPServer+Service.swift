public import ServiceLifecycle

extension HTTPServer: Service {
    /// Listens until graceful shutdown (SIGTERM/SIGINT through a ServiceGroup), then stops cleanly.
    public func run() async throws {
        try start()
        onListening?(configuration.host, port)
        // Throws only on cancellation; either way, drain and stop.
        try? await gracefulShutdown()
        await stop()
    }
}

extension HTTPServer {
    /// `http://HOST:PORT`, with an IPv6 literal in brackets, for the `listening on` line.
    public static func url(host: String, port: Int) -> String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }
}

extension HTTPServer: CustomStringConvertible {
    public var description: String { "HTTPServer(\(configuration.host):\(port))" }
}
