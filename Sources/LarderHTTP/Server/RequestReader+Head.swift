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
        configuration: ServerConfiguration, hosts: HostAllowlist
    ) -> HTTPError? {
        // RFC 9112 §3: a method longer than any the server implements is 501.
        if strlen(method) > router.longestMethod {
            return closing(.notImplemented, "not_implemented", "the method is longer than any this server implements")
        }
        if context.targetLength > configuration.maxTargetLength {
            return closing(.uriTooLong, "uri_too_long", "request target is longer than \(configuration.maxTargetLength) bytes")
        }
        // RFC 9112 §3.2: a Host that is no uri-host [":" port] is 400 (libmicrohttpd refuses two Hosts, not a bad one).
        let host = MHD_lookup_connection_value(connection, .HEADER_KIND, "Host")
        if let host, !isHost(host) {
            return closing(.badRequest, "bad_host", "the Host header is not a host and optional port")
        }
        // A request without Host (HTTP/1.0) is served: a browser always sends one.
        if let host, !hosts.allows(host) {
            return HTTPError(.forbidden, code: RefusalReason.hostNotAllowed.rawValue, message: """
                the Host '\(String(cString: host))' is not one this server answers to (a DNS rebinding defence); \
                name it in --allowed-hosts (LARDER_ALLOWED_HOSTS) if it should be
                """)
        }
        if strcmp(method, "POST") == 0, let why = CrossSiteRequest.refusal(
            origin: MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin"),
            fetchSite: MHD_lookup_connection_value(connection, .HEADER_KIND, "Sec-Fetch-Site"), host: host
        ) {
            return HTTPError(.forbidden, code: RefusalReason.crossSiteRequest.rawValue,
                             message: "a POST from a page on another site is refused: \(why)")
        }
        return nil
    }

    private static func closing(_ status: HTTPStatus, _ code: String, _ message: String) -> HTTPError {
        HTTPError(status, code: code, message: message, headers: ["Connection": "close"])
    }

    /// RFC 3986 `host [":" port]`: a bracketed IP literal or a reg-name (unreserved, pct-encoded,
    /// sub-delims; an IPv4 address is one too), then digits after a colon. Empty is allowed (§3.2).
    private static func isHost(_ value: UnsafePointer<CChar>) -> Bool {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value))
        var index = bytes.startIndex
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = bytes[(index + 1)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ isRegNameByte($0) || $0 == UInt8(ascii: ":") }) else { return false }
            index = close + 1
        } else {
            while index < bytes.endIndex, isRegNameByte(bytes[index]) { index += 1 }
        }
        guard index < bytes.endIndex else { return true }
        guard bytes[index] == UInt8(ascii: ":") else { return false }
        return bytes[(index + 1)...].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// unreserved, the "%" of pct-encoded, sub-delims; a switch, as it runs for every request.
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
