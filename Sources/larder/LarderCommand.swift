import ArgumentParser

/// `larder`: a local HTTP caching proxy for exchange rates and documents.
@main
struct LarderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "larder",
        abstract: "A local HTTP caching proxy for exchange rates and documents.",
        version: LarderVersion.current,
        subcommands: [ServeCommand.self]
    )
}

/// The version `larder --version` prints.
enum LarderVersion {
    static let current = "0.1.0"
}
