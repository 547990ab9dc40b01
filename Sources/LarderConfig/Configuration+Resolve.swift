import Foundation
import LarderDocuments
import LarderHTTP
import LarderRates
import Logging

extension Configuration {
    /// Builds the configuration from flags (which win) and `LARDER_*` variables, validating every value.
    public static func resolve(
        flags: [Setting: String], environment: [String: String]
    ) throws(ConfigurationError) -> Configuration {
        let resolver = Resolver(flags: flags, environment: environment)
        var configuration = Configuration()
        try resolver.applyListenAddress(to: &configuration)
        try resolver.apply(.cacheDir, to: &configuration.cacheDirectory) { try nonEmpty($0) }
        try resolver.apply(.ratesTTL, to: &configuration.ratesTTL) { try duration($0) }
        try resolver.apply(.documentsTTL, to: &configuration.documentsTTL) { try duration($0) }
        try resolver.apply(.documentsSchedule, to: &configuration.documentsSchedule) {
            try choice($0, DocumentsSchedule.allCases.map { ($0.rawValue, $0) })
        }
        try resolver.apply(.clientTimeout, to: &configuration.clientTimeout) { try duration($0, atMost: .seconds(86400)) }
        try resolver.apply(.threads, to: &configuration.threads) { raw throws(Problem) in
            raw == "auto" ? .auto : .fixed(try integer(raw, in: 1...1024, "is not a thread count (1-1024) or auto"))
        }
        try resolver.apply(.maxConnections, to: &configuration.maxConnections) {
            try integer($0, in: 1...1_000_000, "is not a connection count (1-1000000)")
        }
        try resolver.apply(.maxConnectionsPerIP, to: &configuration.maxConnectionsPerIP) {
            try integer($0, in: 1...1_000_000, "is not a connection count (1-1000000)")
        }
        try resolver.apply(.logLevel, to: &configuration.logLevel) {
            try choice($0, Logger.Level.allCases.map { ($0.rawValue, $0) })
        }
        try resolver.apply(.logFormat, to: &configuration.logFormat) { try choice($0, LogFormat.allCases.map { ($0.rawValue, $0) }) }
        var adminToken: String?
        try resolver.apply(.adminToken, to: &adminToken) { try token($0) }
        configuration.adminToken = adminToken

        try resolver.apply(.ratesSchedule, to: &configuration.ratesSchedule) {
            try choice($0, RatesSchedule.allCases.map { ($0.rawValue, $0) })
        }
        var ratesProvider: String?
        try resolver.apply(.ratesProvider, to: &ratesProvider) { raw throws(Problem) in
            let key = raw.uppercased()
            guard RatesProvider.isValidKey(key) else { throw Problem("is not a provider key (1-16 letters, digits or _)") }
            return key
        }
        configuration.ratesProvider = ratesProvider
        try resolver.apply(.ratesPollInterval, to: &configuration.ratesPollInterval) { try duration($0, atMost: .seconds(86400)) }
        try resolver.apply(.ratesMaxBytes, to: &configuration.ratesMaxBytes) { try byteCount($0) }
        try resolver.apply(.documentsIndexMaxBytes, to: &configuration.documentsIndexMaxBytes) { try byteCount($0) }
        try resolver.apply(.documentsMaxBytes, to: &configuration.documentsMaxBytes) { try byteCount($0) }
        try resolver.apply(.ratesCORS, to: &configuration.ratesCORS) { try origins($0) }
        try resolver.apply(.documentsCORS, to: &configuration.documentsCORS) { try origins($0) }
        try resolver.apply(.allowedHosts, to: &configuration.allowedHosts) { try hosts($0) }

        var ratesFormat = RatesFormat.auto
        try resolver.apply(.ratesFormat, to: &ratesFormat) { try choice($0, RatesFormat.allCases.map { ($0.rawValue, $0) }) }
        try resolver.apply(.ratesURL, to: &configuration.rates) { raw throws(Problem) -> UpstreamResource<RatesFormat>? in
            try upstreamList(raw, defaultFormat: ratesFormat)
        }

        var documentsFormat = DocumentsFormat.auto
        try resolver.apply(.documentsFormat, to: &documentsFormat) {
            try choice($0, DocumentsFormat.allCases.map { ($0.rawValue, $0) })
        }
        try resolver.apply(.documentsURL, to: &configuration.documents) { raw throws(Problem) -> UpstreamResource<DocumentsFormat>? in
            try upstreamList(raw, defaultFormat: documentsFormat)
        }
        return configuration
    }
}

extension Configuration {
    /// Where `larder serve` listens (`--host`, `--port` and their variables), resolved and validated by
    /// the same code as `resolve`, for a command that needs only that: `larder healthcheck`.
    public static func resolveListenAddress(
        flags: [Setting: String], environment: [String: String]
    ) throws(ConfigurationError) -> (host: String, port: Int) {
        var configuration = Configuration()
        try Resolver(flags: flags, environment: environment).applyListenAddress(to: &configuration)
        return (configuration.host, configuration.port)
    }
}

extension Resolver {
    func applyListenAddress(to configuration: inout Configuration) throws(ConfigurationError) {
        try apply(.host, to: &configuration.host, HostValidation.check)
        try apply(.port, to: &configuration.port) { try integer($0, in: 0...65535, "is not a port number (0-65535)") }
    }
}

/// Picks each setting's raw value (flag first, then environment) and names its source in errors.
private struct Resolver {
    let flags: [Setting: String]
    let environment: [String: String]

    /// A problem found in a value, before it is known which flag or variable it came from.
    struct Problem: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    func apply<Value>(
        _ setting: Setting, to target: inout Value, _ parse: (String) throws -> Value
    ) throws(ConfigurationError) {
        let raw: String
        let fromEnvironment: Bool
        if let flag = flags[setting] {
            (raw, fromEnvironment) = (flag, false)
        } else if let variable = environment[setting.environmentVariable] {
            (raw, fromEnvironment) = (variable, true)
        } else {
            return
        }
        do {
            target = try parse(raw)
        } catch {
            let problem = (error as? Problem)?.text ?? String(describing: error)
            // An upstream URL may carry a password: it is never echoed (SPEC §6).
            var shown = raw
            if setting == .ratesURL || setting == .documentsURL {
                let entries: [String] = UpstreamListSyntax.entries(raw).map { UpstreamListSyntax.withoutCredentials($0) }
                shown = entries.joined(separator: ", ")
            }
            throw ConfigurationError(setting: setting, fromEnvironment: fromEnvironment, value: shown, problem: problem)
        }
    }
}

private typealias Problem = Resolver.Problem

private func integer(_ raw: String, in range: ClosedRange<Int>, _ problem: String) throws(Problem) -> Int {
    guard let value = Int(raw), range.contains(value) else { throw Problem(problem) }
    return value
}

private func nonEmpty(_ raw: String) throws(Problem) -> String {
    guard !raw.isEmpty else { throw Problem("must not be empty") }
    return raw
}

private func duration(_ raw: String, atMost limit: Duration = .seconds(365 * 86400)) throws(Problem) -> Duration {
    guard let value = DurationParser.parse(raw) else {
        throw Problem("is not a duration (use 90s, 15m, 1h, 2d or a number of seconds)")
    }
    guard value > .zero, value <= limit else {
        throw Problem("is out of range (more than 0, at most \(limit.components.seconds)s)")
    }
    return value
}

/// A byte count: a number of bytes, or with a binary unit (`512k`, `32m`, `1g`; also `KiB`, `MiB`, `GiB`).
private func byteCount(_ raw: String) throws(Problem) -> Int {
    let units: [(String, Int)] = [("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)]
    let lower = raw.lowercased()
    let (digits, multiplier) = units.first { lower.hasSuffix($0.0) }.map { (String(lower.dropLast($0.0.count)), $0.1) }
        ?? (lower, 1)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits),
          case let (bytes, overflow) = count.multipliedReportingOverflow(by: multiplier), !overflow,
          bytes >= 1024, bytes <= 1 << 40 else {
        throw Problem("is not a size from 1024 bytes to 1 TiB (use bytes, or 512k, 32m, 1g)")
    }
    return bytes
}

/// `*`, `none`, or a comma list of origins such as `https://app.example,http://localhost:3000`.
private func origins(_ raw: String) throws(Problem) -> AllowedOrigins {
    let text = raw.trimmingCharacters(in: .whitespaces)
    if text == "*" { return .any }
    if text.lowercased() == "none" { return .none }
    var list: [String] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let candidate = part.trimmingCharacters(in: .whitespaces)
        // An origin is a scheme, a host and an optional port: nothing else, not even a trailing slash.
        guard let components = URLComponents(string: candidate), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.path.isEmpty, components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil else {
            throw Problem("is not *, none, or a comma list of origins like https://app.example or http://localhost:3000 ('\(candidate)' is not an origin)")
        }
        let origin = "\(scheme)://\(host.lowercased())" + (components.port.map { ":\($0)" } ?? "")
        if !list.contains(origin) { list.append(origin) }
    }
    return .list(list)
}

/// A comma list of names, `.domain`s, `[v6]` literals, `ip-literals` or `*` (`HostAllowlist`'s syntax).
private func hosts(_ raw: String) throws(Problem) -> HostAllowlist {
    do {
        return try HostAllowlist(parsing: raw)
    } catch {
        throw Problem(error.description)
    }
}

private func choice<Value>(_ raw: String, _ options: [(String, Value)]) throws(Problem) -> Value {
    guard let match = options.first(where: { $0.0 == raw.lowercased() }) else {
        throw Problem("is not one of: \(options.map(\.0).joined(separator: ", "))")
    }
    return match.1
}

private func token(_ raw: String) throws(Problem) -> String {
    guard !raw.isEmpty, raw.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
        throw Problem("must be non-empty printable ASCII without spaces")
    }
    return raw
}

/// A list of upstreams (SPEC §2): entries separated by newlines (a repeated flag) or by commas where
/// the next entry starts with `http://` or `https://` (a variable), each `URL`, `URL;format=NAME`,
/// `URL;fallback` (asked only when every other failed, never cross-checked: SPEC §4.12) or both.
private func upstreamList<Format: RawRepresentable & CaseIterable & Sendable & Equatable>(
    _ raw: String, defaultFormat: Format
) throws(Problem) -> UpstreamResource<Format>? where Format.RawValue == String {
    var upstreams: [Upstream<Format>] = []
    let entries = UpstreamListSyntax.entries(raw)
    for (index, entry) in entries.enumerated() {
        let (urlText, formatName, fallback) = UpstreamListSyntax.split(entry)
        // The entry is named by position and without credentials: a URL may carry a password.
        let shown: String = UpstreamListSyntax.withoutCredentials(urlText)
        let name: String = entries.count == 1 ? "" : "entry \(index + 1) ('\(shown)') "
        var format = defaultFormat
        if let formatName {
            let names: [String] = Format.allCases.map { $0.rawValue }
            guard let chosen = Format.allCases.first(where: { $0.rawValue == formatName.lowercased() }) else {
                let problem: String = name + "names format '" + formatName + "', not one of: " + names.joined(separator: ", ")
                throw Problem(problem)
            }
            format = chosen
        }
        let url: String
        do throws(Problem) {
            url = try upstreamURL(urlText)
        } catch {
            throw Problem(name + error.text)
        }
        upstreams.append(Upstream(url: url, format: format, fallback: fallback))
    }
    guard let list = UpstreamResource(upstreams: upstreams) else { throw Problem("names no upstream URL") }
    guard upstreams.contains(where: { !$0.fallback }) else { throw Problem("marks every upstream ;fallback: one must be asked first") }
    return list
}

private func upstreamURL(_ raw: String) throws(Problem) -> String {
    guard let components = URLComponents(string: raw), let scheme = components.scheme?.lowercased() else {
        throw Problem("is not a URL")
    }
    guard scheme == "http" || scheme == "https" else { throw Problem("must be an http or https URL") }
    guard let host = components.host, !host.isEmpty else { throw Problem("has no host") }
    return raw
}

private enum HostValidation {
    /// A host is good when it resolves to an address a server socket can bind.
    static func check(_ raw: String) throws(Problem) -> String {
        guard !raw.isEmpty else { throw Problem("must not be empty") }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(raw, nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        guard status == 0 else { throw Problem("is not an address or a resolvable host name") }
        return raw
    }
}
