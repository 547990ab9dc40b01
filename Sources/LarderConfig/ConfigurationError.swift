/// A bad configuration value, named by the flag (and variable) it came from.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    public let setting: Setting
    public let fromEnvironment: Bool
    public let value: String
    public let problem: String

    public var description: String {
        let source = fromEnvironment ? "\(setting.environmentVariable) (\(setting.flag))" : setting.flag
        return "\(source): '\(value)' \(problem)"
    }
}
