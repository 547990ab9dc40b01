import ArgumentParser
import LarderConfig

/// `larder`: a local HTTP caching proxy for exchange rates and documents.
@main
struct LarderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "larder",
        abstract: "A local HTTP caching proxy for exchange rates and documents.",
        version: LarderVersion.current,
        subcommands: [ServeCommand.self, HealthcheckCommand.self]
    )
}
