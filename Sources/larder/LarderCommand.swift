import ArgumentParser
import LarderConfig
import LarderHTTP

/// `larder`: a local HTTP caching proxy for exchange rates and documents.
@main
struct LarderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "larder",
        abstract: "A local HTTP caching proxy for exchange rates and documents.",
        version: versionDescription,
        subcommands: [ServeCommand.self, HealthcheckCommand.self, SettingsTableCommand.self]
    )

    /// `0.1.0 (libmicrohttpd 1.0.10)`, for `--version` and the listening line: which libmicrohttpd
    /// runs matters (a plain `swift build` may link the system's older one).
    static let versionDescription = "\(LarderVersion.current) (\(HTTPServer.library))"
}
