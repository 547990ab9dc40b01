import CLarderHTTP
import CMicroHTTPD
import Glibc

// What Larder refuses in a request's head that libmicrohttpd (discipline level 1) lets through:
// its own framing refusals (RFC 9112 §2.2, §3.2, §5, §6, §7.1) happen before any callback.
extension RequestReader {
    /// The refusal of a request whose request line is past the limits or whose Host is not a
    /// host, before any route sees it; nil when the request may go on. Each closes the
    /// connection: what else the peer sent on it was framed by a head Larder could not trust.
    /// Then SPEC §6's refusals, which leave the connection open: a Host not in `hosts`, a cross-site POST.
    static func refusal(
        connection: OpaquePointer, method: UnsafePointer<CChar>, context: RequestContext, router: Router,
        configuration: ServerConfiguration, hosts: HostAllowlist, owner: UnsafeRawPointer
    ) -> HTTPError? {
        // RFC 9112 §3: a method longer than any the server implements is 501.
        if strlen(method) > router.longestMethod {
            return closing(.notImplemented, "not_implemented", "the method is longer than any this server implements")
        }
        if context.targetLength > configuration.maxTargetLength {
            return closing(.uriTooLong, "uri_too_long", "request target is longer than \(configuration.maxTargetLength) bytes")
        }
        let host = MHD_lookup_connection_value(connection, .HEADER_KIND, "Host")
        // A request without Host (HTTP/1.0) is served: a browser always sends one.
        if let host, let refused = hostRefusal(host, hosts, owner: owner) { return refused }
        if strcmp(method, "POST") == 0, let why = CrossSiteRequest.refusal(
            origin: MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin"),
            fetchSite: MHD_lookup_connection_value(connection, .HEADER_KIND, "Sec-Fetch-Site"), host: host
        ) {
            return HTTPError(.forbidden, code: RefusalReason.crossSiteRequest.rawValue,
                             message: "a POST from a page on another site is refused: \(why)")
        }
        return nil
    }

    /// 400 for a Host that is no `uri-host [":" port]` (RFC 9112 §3.2; libmicrohttpd refuses two
    /// Hosts, not a bad one), 403 for one the allowlist does not name; both read the value in one pass.
    /// `owner` is the server whose allowlist `hosts` is: the value a loop thread last saw it allow is
    /// remembered, and the same value again (a keep-alive client's) is not checked anew.
    private static func hostRefusal(_ host: UnsafePointer<CChar>, _ hosts: HostAllowlist, owner: UnsafeRawPointer) -> HTTPError? {
        let count = strlen(host)
        if larder_host_memo_hit(owner, host, count) != 0 { return nil }
        let allowed: Bool? = host.withMemoryRebound(to: UInt8.self, capacity: count) {
            let bytes = UnsafeBufferPointer(start: $0, count: count)
            guard let field = HostField(bytes) else { return nil }
            return hosts.allows(bytes, field)
        }
        guard let allowed else {
            return closing(.badRequest, "bad_host", "the Host header is not a host and optional port")
        }
        if allowed {
            larder_host_memo_keep(owner, host, count)
            return nil
        }
        return HTTPError(.forbidden, code: RefusalReason.hostNotAllowed.rawValue, message: """
            the Host '\(String(cString: host))' is not one this server answers to (a DNS rebinding defence); \
            name it in --allowed-hosts (LARDER_ALLOWED_HOSTS) if it should be
            """)
    }

    private static func closing(_ status: HTTPStatus, _ code: String, _ message: String) -> HTTPError {
        HTTPError(status, code: code, message: message, headers: ["Connection": "close"])
    }
}
