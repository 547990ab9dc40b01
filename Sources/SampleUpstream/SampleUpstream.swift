public import Foundation
public import LarderHTTP
public import Logging
import LarderRates

/// A small HTTP upstream of Larder's own: serves a folder with validators and misbehaves on request.
public final class SampleUpstream: Sendable {
    public let server: HTTPServer

    /// Loads `root` into memory and prepares (does not start) the server.
    public init(
        root: URL, configuration: ServerConfiguration, logger: Logger,
        onListening: (@Sendable (_ host: String, _ port: Int) -> Void)? = nil
    ) throws {
        let files = try FileStore(root: root)
        let faults = FaultTable()
        let log = RequestLog()
        let today = FrankfurterToday()
        var router = Router()
        // Control routes first: they must win over the catch-all file route.
        ControlRoutes(files: files, faults: faults, log: log, today: today, clock: { Int(Date().timeIntervalSince1970) })
            .register(on: &router)
        SDMXRoutes(series: SDMXSeries(files: files), log: log).register(on: &router)
        FrankfurterRoutes(
            set: FrankfurterSet(files: files), faults: faults, log: log, today: { today.day }
        ).register(on: &router)
        FileRoutes(files: files, faults: faults, log: log).register(on: &router)
        var configuration = configuration
        configuration.maxBodyBytes = max(configuration.maxBodyBytes, 128 * 1024 * 1024)
        server = HTTPServer(configuration: configuration, router: router, logger: logger, onListening: onListening)
        logger.info("serving \(files.paths.count) files from \(root.path)")
    }
}
