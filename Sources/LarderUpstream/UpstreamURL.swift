import Foundation

/// An upstream URL checked against SPEC §6 (http or https, with a host), its credentials split off.
struct UpstreamURL: Sendable {
    /// The URL to request: the caller's URL without user info, which AsyncHTTPClient would not use anyway.
    let requestURL: String
    /// Sent as HTTP Basic authentication when the URL carried `user:password@`.
    let credentials: (user: String, password: String)?

    /// What messages and logs show: the URL without credentials.
    var shown: String { requestURL }

    init(_ string: String) throws(UpstreamError) {
        let shown = Self.redact(string)
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased() else {
            throw UpstreamError(.badURL, "not a URL: \(shown)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw UpstreamError(.badURL, "only http and https upstreams are allowed, not \(scheme): \(shown)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw UpstreamError(.badURL, "no host in \(shown)")
        }
        var bare = components
        bare.user = nil
        bare.password = nil
        guard let requestURL = bare.string else {
            throw UpstreamError(.badURL, "not a URL: \(shown)")
        }
        self.requestURL = requestURL
        if let user = components.user {
            credentials = (user, components.password ?? "")
        } else {
            credentials = nil
        }
    }

    /// The string with any `user:password@` removed from its authority; works on strings that are not URLs too.
    static func redact(_ string: String) -> String {
        let authorityStart = string.range(of: "://")?.upperBound ?? string.startIndex
        let rest = string[authorityStart...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return string }
        return String(string[..<authorityStart]) + String(string[string.index(after: at)...])
    }
}

extension UpstreamClient {
    /// The URL as `/status` and logs may show it: without `user:password@`.
    public static func redacted(_ url: String) -> String {
        UpstreamURL.redact(url)
    }
}
