import ArgumentParser
import LarderConfig

/// `larder settings-table [NAME…]`: the settings as the Markdown table of `docs/configuration.md`, all of
/// them or those named (`host`, `rates-url`, …), in that order. `make docs` writes the docs with it.
struct SettingsTableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings-table",
        abstract: "Print the settings as a Markdown table (for make docs).",
        shouldDisplay: false
    )

    @Argument(help: "Settings to list, by flag name without the dashes (default: all).")
    var names: [String] = []

    func run() throws {
        var settings: [Setting] = []
        for name in names {
            guard let setting = Setting(rawValue: name) else {
                throw ValidationError("'\(name)' is not a setting (one of: \(Setting.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            settings.append(setting)
        }
        print(Setting.markdownTable(names.isEmpty ? Setting.allCases : settings), terminator: "")
    }
}
