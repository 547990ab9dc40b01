import LarderDocuments
import LarderHTTP
import LarderRates

extension FuzzTarget {
    /// A request path: percent-decoding into segments, then routing through the shapes of Larder's
    /// route table. Decoded segments re-encode to themselves and hold no control byte; a route only
    /// captures what the path holds; a document name that passes the name rule is one inert path
    /// component whatever escapes spelled it.
    static let path = FuzzTarget("path") { input throws(PropertyViolation) in
        let raw = "/" + text(input)
        guard let segments = RequestReader.decodeSegments(raw) else { return }
        let pieces = raw.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        try expect(raw == "/" ? segments.isEmpty : segments.count == pieces.count,
                   "\(segments.count) segments from \(pieces.count) pieces of \(raw.debugDescription)")
        for segment in segments {
            try expect(!segment.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "control byte in segment \(segment.debugDescription)")
            let again = PercentDecoding.decode(Substring(percentEncoded(segment)), plusIsSpace: false)
            try expect(again == segment, "\(segment.debugDescription) re-encoded decodes to \(again.debugDescription)")
        }
        for method in [HTTPMethod.get, .head, .post, .options] {
            try checkMatch(routes.match(method, segments), method: method, segments: segments)
        }
    }

    /// The shapes of Larder's routes (literal, `:name`, a rule on `:date`).
    private static let routes: Router = {
        var router = Router()
        let answer = Handler.immediate { _ in HTTPError.notFound().response }
        let dateShaped: Router.ParameterRule = { _, value in DateSelection.looksLikeSelection(value) }
        router.add(.post, "/rates/refresh", answer)
        for path in ["/rates", "/latest", "/v1/latest", "/currencies", "/health", "/ready", "/documents"] {
            router.add(.get, path, reads: [], cors: .anyOrigin, answer)
        }
        router.add(.get, "/rates/:date", cors: .anyOrigin, accepts: dateShaped, answer)
        router.add(.get, "/:date", cors: .anyOrigin, accepts: dateShaped, answer)
        router.add(.get, "/v1/:date", cors: .anyOrigin, accepts: dateShaped, answer)
        router.add(.get, "/rates/:date", answer)
        router.add(.get, "/documents/:name", answer)
        router.add(.post, "/documents/refresh", answer)
        return router
    }()

    private static func checkMatch(_ match: Router.Match, method: HTTPMethod, segments: [String]) throws(PropertyViolation) {
        switch match {
        case .found(_, let parameters, let route, _):
            let pattern = route.split(separator: "/").map(String.init)
            try expect(pattern.count == segments.count, "\(route) matched \(segments.count) segments")
            for (part, segment) in zip(pattern, segments) {
                if part.hasPrefix(":") {
                    try expect(parameters[String(part.dropFirst())] == segment && !segment.isEmpty,
                               "\(route) captured \(parameters) from \(segments)")
                } else {
                    try expect(part == segment, "\(route) matched the segment \(segment.debugDescription)")
                }
            }
            if route.hasSuffix(":date"), route != "/rates/:date" {
                try expect(DateSelection.looksLikeSelection(segments.last ?? ""), "\(route) took \(segments)")
            }
            if route == "/documents/:name", let name = parameters["name"], DocumentName.isValid(name) {
                try checkInertName(name)
            }
        case .methodNotAllowed(let allow):
            try expect(!allow.isEmpty && !allow.contains(method), "405 for \(method) allowing \(allow)")
        case .preflight(let cors, _):
            try expect(method == .options && cors != .none, "a preflight for \(method) or without CORS")
        case .notFound:
            break
        }
    }

    /// Every byte but RFC 3986's unreserved ones as `%XX`, so decoding must give the text back.
    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// A name that passed the name rule becomes a file name: one component, ASCII, nothing a path or
/// a decoder would read as anything else.
func checkInertName(_ name: String) throws(PropertyViolation) {
    let bytes = Array(name.utf8)
    try expect(!bytes.contains(0) && !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(UInt8(ascii: "\\")),
               "a valid name holds a separator or NUL: \(name.debugDescription)")
    try expect(name != "." && name != "..", "a valid name is a dot segment: \(name.debugDescription)")
    try expect(bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") },
               "a valid name holds a byte outside printable ASCII, or %: \(name.debugDescription)")
    try expect(bytes.count <= DocumentName.maxLength, "a valid name is \(bytes.count) bytes long")
    try expect(!name.contains(DocumentName.temporarySuffix), "a valid name holds the partial-download suffix")
    let folded = DocumentName.caseFolded(name)
    try expect(DocumentName.isValid(folded) && DocumentName.caseFolded(folded) == folded,
               "case folding \(name.debugDescription) gave \(folded.debugDescription)")
}
