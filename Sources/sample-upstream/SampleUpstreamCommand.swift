import ArgumentParser
import Foundation
import LarderConfig
import LarderHTTP
import Logging
import SampleUpstream
import ServiceLifecycle
import UnixSignals

/// `sample-upstream`: serves a folder over HTTP as Larder's upstream, for `make run` and the tests.
@main
struct SampleUpstreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-upstream",
        abstract: "Serve a folder over HTTP with ETag/Last-Modified/304, and faults on request (see /_control/).",
        version: "\(LarderVersion.current) (\(HTTPServer.library))"
    )

    @Option(help: "The folder to serve.")
    var root = "Examples/upstream"
    @Option(help: "Address to bind.")
    var host = "127.0.0.1"
    @Option(help: "Port to bind; 0 picks a free one.")
    var port = 8081
    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port: '\(port)' is not a port number (0-65535)") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: '\(logLevel)' is not a log level") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--root: '\(root)' is not a folder")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "sample-upstream")
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = 2
        configuration.drainTimeout = .seconds(1)
        let upstream = try SampleUpstream(
            root: URL(fileURLWithPath: root), configuration: configuration, logger: logger
        ) { host, port in
            FileHandle.standardOutput.write(Data("sample-upstream listening on \(HTTPServer.url(host: host, port: port))\n".utf8))
        }
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: upstream.server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        ))
        try await group.run()
    }
}
