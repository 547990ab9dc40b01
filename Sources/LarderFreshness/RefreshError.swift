/// Why a refresh failed, in the words `/status`, logs and `Cache-Status` use.
public struct RefreshError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure: also the `detail` of a stale `Cache-Status` and a metrics label.
    public enum Kind: String, Sendable {
        /// Connection refused, reset or timed out.
        case unreachable = "upstream-unreachable"
        /// The upstream answered an error status, too much, or too many redirects.
        case upstreamError = "upstream-error"
        /// The upstream's body was refused: wrong shape, bad numbers, truncated.
        case invalidPayload = "upstream-invalid"
        /// Larder could not write its own cache.
        case store = "store-error"
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
