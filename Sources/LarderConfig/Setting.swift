import Foundation
/// One configurable value: its `--flag` and its `LARDER_*` environment variable (SPEC §2).
public enum Setting: String, CaseIterable, Sendable {
    case host
    case port
    case cacheDir = "cache-dir"
    case ratesURL = "rates-url"
    case ratesFormat = "rates-format"
    case ratesTTL = "rates-ttl"
    case documentsURL = "documents-url"
    case documentsFormat = "documents-format"
    case documentsTTL = "documents-ttl"
    case adminToken = "admin-token"
    case threads
    case logLevel = "log-level"
    case logFormat = "log-format"
    case clientTimeout = "client-timeout"
    case maxConnections = "max-connections"
    case maxConnectionsPerIP = "max-connections-per-ip"
    case ratesSchedule = "rates-schedule"
    case ratesProvider = "rates-provider"
    case ratesPollInterval = "rates-poll-interval"
    case ratesCORS = "rates-cors"
    case documentsCORS = "documents-cors"
    case ratesMaxBytes = "rates-max-bytes"
    case documentsIndexMaxBytes = "documents-index-max-bytes"
    case documentsMaxBytes = "documents-max-bytes"
    case allowedHosts = "allowed-hosts"
    case documentsSchedule = "documents-schedule"

    /// `--rates-ttl`
    public var flag: String { "--\(rawValue)" }

    /// `LARDER_RATES_TTL`
    public var environmentVariable: String {
        "LARDER_" + rawValue.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}
