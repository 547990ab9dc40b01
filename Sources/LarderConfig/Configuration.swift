public import LarderDocuments
public import LarderHTTP
public import LarderRates
public import Logging

/// Everything `larder serve` is told, validated once at start; later modules read it and never parse again.
public struct Configuration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var cacheDirectory = "./larder-cache"
    /// nil when `--rates-url` is not set: the rates routes are disabled.
    public var rates: UpstreamResource<RatesFormat>?
    public var ratesTTL: Duration = .seconds(3600)
    /// When the rates go stale: a TTL, or the ECB's publication calendar (SPEC §4.10).
    public var ratesSchedule: RatesSchedule = .auto
    /// Who publishes the rates, as Frankfurter v2 names providers; nil: the feed format's key (`ECB`, `OXR`, `PIPE`).
    public var ratesProvider: String?
    /// Under a publication calendar, how often a late publication is polled for.
    public var ratesPollInterval: Duration = .seconds(600)
    /// With several rates upstreams, whether each new publication is compared across them (SPEC
    /// §4.12). Not a flag: a program embedding Larder (or a test counting one refresh's requests)
    /// may turn it off.
    public var ratesCrossCheck = true
    /// The largest rates body taken from the upstream, counted after decompression (SPEC §6).
    public var ratesMaxBytes = 32 * 1024 * 1024
    /// Which web origins may read `/rates*`, `/currencies` and the Frankfurter routes (SPEC §3).
    public var ratesCORS: AllowedOrigins = .any
    /// nil when `--documents-url` is not set: the documents routes are disabled.
    public var documents: UpstreamResource<DocumentsFormat>?
    public var documentsTTL: Duration = .seconds(900)
    public var documentsSchedule: DocumentsSchedule = .ttl
    /// The largest documents index taken, after decompression (SPEC §6): an index of 100,000 entries fits.
    public var documentsIndexMaxBytes = DocumentIndexParser.defaultMaxBytes
    /// The largest document taken, after decompression (SPEC §6).
    public var documentsMaxBytes = 64 * 1024 * 1024
    /// Which web origins may read `/documents*`: none by default, as a mirror may hold private documents.
    public var documentsCORS: AllowedOrigins = .none
    /// The `Host` names answered (DNS rebinding defence, SPEC §6); nil: by the bind address (loopback
    /// names and IP literals on loopback, else any).
    public var allowedHosts: HostAllowlist?
    /// When set, POST routes need `Authorization: Bearer <token>`.
    public var adminToken: String?
    /// The HTTP server's threads: one per core up to a cap by default, or a fixed count.
    public var threads: ThreadCount = .auto
    public var logLevel: Logger.Level = .info
    public var logFormat: LogFormat = .text
    public var clientTimeout: Duration = .seconds(30)
    public var maxConnections = 4096
    public var maxConnectionsPerIP = 1024

    /// The defaults of SPEC §2.
    public init() {}
}

/// One upstream: a URL and the format its body is read as.
public struct Upstream<Format: Sendable & Equatable>: Sendable, Equatable {
    public var url: String
    public var format: Format
    /// Marked `;fallback`: asked only when every upstream not so marked failed, and never cross-checked
    /// (SPEC §4.12): the origin behind a tier of Larders.
    public var fallback: Bool

    public init(url: String, format: Format, fallback: Bool = false) {
        self.url = url
        self.format = format
        self.fallback = fallback
    }
}

/// A resource's upstreams in priority order (SPEC §2, §4.12): never empty; one is today's behaviour.
public struct UpstreamResource<Format: Sendable & Equatable>: Sendable, Equatable {
    /// The first is the primary; the others are asked, in order, when the ones before fail.
    public private(set) var upstreams: [Upstream<Format>]

    /// One upstream.
    public init(url: String, format: Format) {
        upstreams = [Upstream(url: url, format: format)]
    }

    /// Several upstreams in priority order; nil when `upstreams` is empty.
    public init?(upstreams: [Upstream<Format>]) {
        guard !upstreams.isEmpty else { return nil }
        self.upstreams = upstreams
    }

    /// The primary's URL; setting it makes the primary the only upstream.
    public var url: String {
        get { upstreams[0].url }
        set { upstreams = [Upstream(url: newValue, format: upstreams[0].format)] }
    }

    /// The primary's format.
    public var format: Format {
        get { upstreams[0].format }
        set { upstreams[0].format = newValue }
    }

    /// What the store records as the resource's source (SPEC §4.9, applied to the list as a set):
    /// one upstream is its URL, as before; several are their distinct URLs sorted, one per line, so
    /// reordering the list is no change of upstream but adding or removing one is.
    public var identity: String {
        let urls: [String] = upstreams.map { $0.url }
        return Set(urls).sorted().joined(separator: "\n")
    }
}

/// Which web origins may read a resource's answers (`--rates-cors`, `--documents-cors`).
public enum AllowedOrigins: Sendable, Equatable {
    case none
    case any
    /// Serialized origins, `scheme://host[:port]`, lowercase.
    case list([String])
}

/// The shape of log lines on standard error.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}
