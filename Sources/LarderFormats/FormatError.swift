/// Why a strict reader refused its input: a plain message, without a format prefix (callers add theirs).
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, and where when the reader knows (`byte 12: unterminated string`).
    public let message: String

    /// Wraps `message` as it is.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
