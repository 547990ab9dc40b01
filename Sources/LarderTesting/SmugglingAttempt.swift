/// A request whose head breaks RFC 9112 in a way that lets two parsers disagree about where it
/// ends, with a second request hidden behind it, and what Larder answers: one refusal, then the
/// connection closed, so the hidden request is never read as one.
public struct SmugglingAttempt: Sendable, CustomStringConvertible {
    public let name: String
    public let bytes: [UInt8]
    /// The status of the only answer; nil when the server closes without one.
    public let status: Int?
    /// Larder's JSON `error.code` when Larder answers; nil when libmicrohttpd answers by itself
    /// (its short HTML body: the library offers no way to shape its own refusals).
    public let errorCode: String?

    public var description: String { name }

    init(_ name: String, _ text: String, status: Int?, errorCode: String? = nil) {
        self.name = name
        bytes = Array(text.utf8)
        self.status = status
        self.errorCode = errorCode
    }
}

extension SmugglingAttempt {
    /// The request the attempts hide: `GET path`.
    public static func hidden(_ path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n"
    }

    /// How `exchange` differs from this attempt's refusal: the status (with Larder's JSON code and
    /// `Connection: close` when Larder answers), the close, nothing answered after. Empty when none.
    public func mismatches(_ exchange: RawExchange) -> [String] {
        var found: [String] = []
        if exchange.answer?.status != status { found.append("answered \(exchange.answer?.status ?? 0), not \(status ?? 0)") }
        if !exchange.closed { found.append("the connection stays open") }
        if let more = exchange.more { found.append("the hidden request was answered \(more.status)") }
        if let errorCode, let answer = exchange.answer {
            if answer.errorCode != errorCode { found.append("error code \(answer.errorCode ?? "none"), not \(errorCode)") }
            if answer.header("Connection")?.lowercased() != "close" { found.append("no Connection: close") }
        }
        return found
    }

    /// Every form, each a `POST target` hiding `smuggled` (a complete request).
    public static func all(target: String, smuggled: String) -> [SmugglingAttempt] {
        SmugglingForm.allCases.flatMap { $0.attempts(target: target, smuggled: smuggled) }
    }

    /// RFC 9110 §8.6, RFC 9112 §6.3: two different lengths; one parser takes the first, another the last.
    static func duplicateContentLength(target: String, smuggled: String) -> [SmugglingAttempt] {
        let long = 5 + smuggled.utf8.count
        return [
            SmugglingAttempt(
                "Content-Length 5 then \(long)",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: \(long)\r\n\r\nhello\(smuggled)",
                status: 400),
            SmugglingAttempt(
                "Content-Length \(long) then 5",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(long)\r\nContent-Length: 5\r\n\r\nhello\(smuggled)",
                status: 400),
        ]
    }

    /// RFC 9110 §8.6 lets a recipient accept a repeated identical length; Larder refuses it too
    /// (libmicrohttpd's discipline level 1): nothing sends it, and a repeat is a sign of tampering.
    static func repeatedContentLength(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "Content-Length 5 twice",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello\(smuggled)",
                status: 400),
            SmugglingAttempt(
                "Content-Length list 5, 5",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5, 5\r\n\r\nhello\(smuggled)",
                status: 400),
        ]
    }

    /// RFC 9112 §6.1, §6.3: a length and chunked together; TE.CL and CL.TE desyncs.
    static func contentLengthWithTransferEncoding(target: String, smuggled: String) -> [SmugglingAttempt] {
        let chunkLine = String(smuggled.utf8.count, radix: 16) + "\r\n"
        return [
            // A length-reader takes the chunk-size line as the body and `smuggled` as the next request.
            SmugglingAttempt(
                "Transfer-Encoding chunked then Content-Length",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: \(chunkLine.utf8.count)\r\n\r\n"
                    + chunkLine + smuggled + "\r\n0\r\n\r\n",
                status: 400),
            // A chunked reader stops at the empty chunk and takes `smuggled` as the next request.
            SmugglingAttempt(
                "Content-Length then Transfer-Encoding chunked",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(5 + smuggled.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    + smuggled,
                status: 400),
        ]
    }

    /// RFC 9112 §3.2: more than one Host field line.
    static func duplicateHost(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "two different Hosts", "POST \(target) HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n" + smuggled, status: 400),
            SmugglingAttempt(
                "the same Host twice", "POST \(target) HTTP/1.1\r\nHost: x\r\nhost: x\r\n\r\n" + smuggled, status: 400),
        ]
    }

    /// RFC 9112 §3.2: a Host value that is no uri-host [":" port]; libmicrohttpd passes it, Larder refuses it.
    static func invalidHost(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "Host with a space", "POST \(target) HTTP/1.1\r\nHost: x y\r\n\r\n" + smuggled,
                status: 400, errorCode: "bad_host"),
            SmugglingAttempt(
                "Host with a path", "POST \(target) HTTP/1.1\r\nHost: x/evil\r\n\r\n" + smuggled,
                status: 400, errorCode: "bad_host"),
        ]
    }

    /// RFC 9112 §5.1: whitespace between a field name and its colon.
    static func whitespaceBeforeColon(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "Content-Length SP colon",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length : \(smuggled.utf8.count)\r\n\r\n" + smuggled,
                status: 400),
            SmugglingAttempt(
                "Transfer-Encoding HTAB colon",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n" + smuggled,
                status: 400),
        ]
    }

    /// RFC 9112 §5.2: obs-fold (a line starting with SP or HTAB continues the previous field).
    static func obsFold(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "Transfer-Encoding folded",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + smuggled,
                status: 400),
            SmugglingAttempt(
                "a field folded with HTAB",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nX-Folded: a\r\n\tb\r\n\r\n" + smuggled,
                status: 400),
            SmugglingAttempt(
                "the first field line starting with SP",
                "POST \(target) HTTP/1.1\r\n Content-Length: 5\r\nHost: localhost\r\n\r\nhello" + smuggled,
                status: 400),
        ]
    }

    /// RFC 9112 §2.2: a CR not followed by LF, in a field or in the request line.
    static func bareCR(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "bare CR in a field value",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nX-A: a\rContent-Length: 5\r\n\r\nhello" + smuggled,
                status: 400),
            SmugglingAttempt(
                "bare CR in the request line", "POST \(target)\r HTTP/1.1\r\nHost: localhost\r\n\r\n" + smuggled, status: 400),
        ]
    }

    /// RFC 9112 §2.2 allows a bare LF as a line end; Larder refuses it (discipline level 1), since
    /// a parser in front that does not would read the lines differently.
    static func bareLF(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "bare LF line ends", "POST \(target) HTTP/1.1\nHost: x\nContent-Length: 5\n\nhello" + smuggled,
                status: 400),
            SmugglingAttempt(
                "bare LF inside a field line",
                "POST \(target) HTTP/1.1\r\nHost: localhost\r\nX-A: a\nContent-Length: 5\r\n\r\nhello" + smuggled,
                status: 400),
        ]
    }

    /// RFC 9112 §7.1: a chunk size that overflows 64 bits, or is no hex number at all.
    static func badChunkSize(target: String, smuggled: String) -> [SmugglingAttempt] {
        let chunked = "POST \(target) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
        return [
            // libmicrohttpd's status for a size past 64 bits: the body is larger than it can take. A
            // parser that truncated 2^64 + 5 to 64 bits would read 5 bytes and then `smuggled`.
            SmugglingAttempt(
                "chunk size FFFFFFFFFFFFFFFFFF", chunked + "FFFFFFFFFFFFFFFFFF\r\nhello\r\n0\r\n\r\n" + smuggled,
                status: 413),
            SmugglingAttempt(
                "chunk size 10000000000000005 (2^64 + 5)", chunked + "10000000000000005\r\nhello\r\n0\r\n\r\n" + smuggled,
                status: 413),
            SmugglingAttempt("chunk size zz", chunked + "zz\r\nhello\r\n0\r\n\r\n" + smuggled, status: 400),
            SmugglingAttempt("chunk size -5", chunked + "-5\r\nhello\r\n0\r\n\r\n" + smuggled, status: 400),
        ]
    }

    /// RFC 9112 §3: a request line past the limits (SPEC §6). Within libmicrohttpd's 32 KiB
    /// per-connection memory Larder answers (414 for the target, 501 for a method longer than any
    /// it implements); past it libmicrohttpd does (414), or closes without an answer while it is
    /// still reading a method.
    static func overlongRequestLine(target: String, smuggled: String) -> [SmugglingAttempt] {
        [
            SmugglingAttempt(
                "a 10,000-byte target",
                "POST \(target)?\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n" + smuggled,
                status: 414, errorCode: "uri_too_long"),
            SmugglingAttempt(
                "a 40,000-byte target",
                "POST \(target)?\(String(repeating: "a", count: 40_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n" + smuggled,
                status: 414),
            SmugglingAttempt(
                "a 10,000-byte method",
                "\(String(repeating: "P", count: 10_000)) \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n" + smuggled,
                status: 501, errorCode: "not_implemented"),
            SmugglingAttempt(
                "a 40,000-byte method",
                "\(String(repeating: "P", count: 40_000)) \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n" + smuggled,
                status: nil),
        ]
    }
}

/// The ways of hiding a request that Larder refuses, one per RFC rule (see each builder above).
public enum SmugglingForm: String, CaseIterable, Sendable {
    case duplicateContentLength, repeatedContentLength, contentLengthWithTransferEncoding, duplicateHost,
         invalidHost, whitespaceBeforeColon, obsFold, bareCR, bareLF, badChunkSize, overlongRequestLine

    /// This form's variants, each a `POST target` hiding `smuggled` (a complete request).
    public func attempts(target: String, smuggled: String) -> [SmugglingAttempt] {
        let build: (String, String) -> [SmugglingAttempt] = switch self {
        case .duplicateContentLength: SmugglingAttempt.duplicateContentLength
        case .repeatedContentLength: SmugglingAttempt.repeatedContentLength
        case .contentLengthWithTransferEncoding: SmugglingAttempt.contentLengthWithTransferEncoding
        case .duplicateHost: SmugglingAttempt.duplicateHost
        case .invalidHost: SmugglingAttempt.invalidHost
        case .whitespaceBeforeColon: SmugglingAttempt.whitespaceBeforeColon
        case .obsFold: SmugglingAttempt.obsFold
        case .bareCR: SmugglingAttempt.bareCR
        case .bareLF: SmugglingAttempt.bareLF
        case .badChunkSize: SmugglingAttempt.badChunkSize
        case .overlongRequestLine: SmugglingAttempt.overlongRequestLine
        }
        return build(target, smuggled)
    }
}
