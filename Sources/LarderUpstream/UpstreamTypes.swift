import Foundation

/// The HTTP validators an upstream sent with a body, replayed as `If-None-Match` / `If-Modified-Since`.
public struct UpstreamValidators: Sendable, Hashable, Codable {
    public var etag: String?
    /// The `Last-Modified` value exactly as the upstream sent it.
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    public static let none = UpstreamValidators()
}

/// The limits every upstream request runs under (SPEC §6).
public struct UpstreamLimits: Sendable, Equatable {
    public var connectTimeout: Duration = .seconds(5)
    /// The whole request: connect, head and body together.
    public var requestTimeout: Duration = .seconds(60)
    public var maxRedirects = 5
    /// How far one compressed response may inflate, whatever the request's cap: a backstop on the
    /// decompressor, which is shared by every request. Keep it at least the largest `maxBytes` in use.
    public var maxInflatedBytes = 64 * 1024 * 1024

    public init() {}
}

/// What a conditional GET came back with.
public enum UpstreamResult: Sendable {
    /// 304: the stored copy is current; the validators the upstream sent with it (may refresh the stored ones).
    /// A validator the 304 leaves out keeps the value the request sent, so these can always be stored.
    /// `freshFor`: the seconds of freshness the answer declares (`UpstreamClient.freshFor`).
    case notModified(UpstreamValidators, freshFor: Int?)
    /// 200 with a complete body, at most the cap, after decompression.
    case fetched(UpstreamBody)
}

/// What a streamed conditional GET came back with; on 200 the body has gone to the sink.
public enum UpstreamStreamOutcome: Sendable {
    /// 304, as in `UpstreamResult.notModified`; the sink was never called.
    case notModified(UpstreamValidators, freshFor: Int?)
    /// 200: the complete body went to the sink.
    case streamed(UpstreamStreamedBody)
}

/// A body that went to a sink: how long it was (after decompression) and what came with it.
public struct UpstreamStreamedBody: Sendable {
    public let byteCount: Int
    public let validators: UpstreamValidators
    public let contentType: String?
    /// The seconds of freshness the answer declares (`UpstreamClient.freshFor`); nil when it declares none.
    public let freshFor: Int?

    public init(byteCount: Int, validators: UpstreamValidators, contentType: String?, freshFor: Int? = nil) {
        self.byteCount = byteCount
        self.validators = validators
        self.contentType = contentType
        self.freshFor = freshFor
    }
}

/// A complete upstream body and what came with it.
public struct UpstreamBody: Sendable {
    public let bytes: [UInt8]
    public let validators: UpstreamValidators
    public let contentType: String?
    /// The seconds of freshness the answer declares (`UpstreamClient.freshFor`); nil when it declares none.
    public let freshFor: Int?

    public init(bytes: [UInt8], validators: UpstreamValidators, contentType: String?, freshFor: Int? = nil) {
        self.bytes = bytes
        self.validators = validators
        self.contentType = contentType
        self.freshFor = freshFor
    }
}

/// Why an upstream request failed; the message is safe to show in `/status` and logs (no credentials).
public struct UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for metrics and `Cache-Status` details.
    public enum Kind: String, Sendable {
        /// Connection refused, DNS failure, reset: the upstream could not be reached.
        case unreachable
        /// Connect or whole-request timeout.
        case timeout
        /// An HTTP status other than 200 or 304 (after redirects).
        case status
        /// The body (after decompression) is larger than the cap.
        case tooLarge
        /// More than the redirect limit, a loop, or a redirect to a scheme other than http/https.
        case redirect
        /// The URL is not http/https or is malformed.
        case badURL
        /// Anything else on the wire: a body cut short, bad compression, a protocol error.
        case transfer
    }

    public let kind: Kind
    public let message: String
    /// The HTTP status for `.status`.
    public let status: Int?
    /// The `Retry-After` of a `.status` answer, in seconds, when it gave one.
    public var retryAfter: Int?

    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    public var description: String { message }

    /// Whether no answer came at all (unreachable, or timed out), as against an answer Larder could not use.
    public var gaveNoAnswer: Bool { kind == .unreachable || kind == .timeout }
}
