import Foundation
import LarderConfig
import LarderHTTP
import Logging
import ServiceLifecycle

/// The running Larder built from a configuration — the same value for the binary and for tests.
public struct LarderApplication: Sendable {
    public let configuration: Configuration
    public let server: HTTPServer
    let logger: Logger

    /// `onListening` receives the bound host and the real port (SPEC §2's `listening on` line).
    public init(
        configuration: Configuration, logger: Logger,
        onListening: (@Sendable (_ host: String, _ port: Int) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        server = HTTPServer(
            configuration: ServerConfiguration(configuration),
            router: Self.router(for: configuration),
            logger: logger,
            onListening: onListening
        )
    }

    /// Every route Larder answers.
    static func router(for configuration: Configuration) -> Router {
        var router = Router()
        HealthRoutes.register(on: &router)
        // The rates and documents modules replace these as they arrive.
        DisabledResourceRoutes.rates.register(on: &router, configured: configuration.rates != nil)
        DisabledResourceRoutes.documents.register(on: &router, configured: configuration.documents != nil)
        return router
    }

    /// Serves until SIGTERM or SIGINT, then stops gracefully.
    public func run() async throws {
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: server)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }
}

extension ServerConfiguration {
    /// The HTTP layer's part of Larder's configuration.
    init(_ configuration: Configuration) {
        self.init()
        host = configuration.host
        port = configuration.port
        threads = configuration.threads
        connectionTimeoutSeconds = Int(configuration.clientTimeout.components.seconds)
        maxConnections = configuration.maxConnections
        maxConnectionsPerIP = min(configuration.maxConnectionsPerIP, configuration.maxConnections)
    }
}
