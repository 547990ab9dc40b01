import Glibc

/// SPEC §6: a `POST` sent by a page on another origin is refused, admin token or not, so a page a
/// visitor opens cannot make their Larder refresh. Clients that send neither `Origin` nor
/// `Sec-Fetch-Site` (curl, cron jobs, services) are not browsers' cross-site requests and pass.
enum CrossSiteRequest {
    /// Why a request with these fields is cross-site, or nil when it is not: an `Origin` other than
    /// the request's own (`http://` or `https://` and its `Host`; `null` is never its own), or a
    /// `Sec-Fetch-Site` of `cross-site` or `same-site`.
    static func refusal(
        origin: UnsafePointer<CChar>?, fetchSite: UnsafePointer<CChar>?, host: UnsafePointer<CChar>?
    ) -> String? {
        if let fetchSite, strcasecmp(fetchSite, "cross-site") == 0 || strcasecmp(fetchSite, "same-site") == 0 {
            return "Sec-Fetch-Site is \(String(cString: fetchSite))"
        }
        guard let origin, !isOwn(origin: origin, host: host) else { return nil }
        let shown = String(String(cString: origin).prefix(200))
        let own = host.map { "http://\(String(cString: $0))" } ?? "none: the request has no Host"
        return "Origin '\(shown)' is not this server's own origin (\(own))"
    }

    /// `origin` is `http://HOST` or `https://HOST`, case-insensitively (a TLS proxy in front keeps the Host).
    private static func isOwn(origin: UnsafePointer<CChar>, host: UnsafePointer<CChar>?) -> Bool {
        guard let host, host.pointee != 0 else { return false }
        let rest: UnsafePointer<CChar>
        if strncasecmp(origin, "http://", 7) == 0 {
            rest = origin + 7
        } else if strncasecmp(origin, "https://", 8) == 0 {
            rest = origin + 8
        } else {
            return false
        }
        return strcasecmp(rest, host) == 0
    }
}
