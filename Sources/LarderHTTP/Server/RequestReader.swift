import CLarderHTTP
import CMicroHTTPD
import Glibc

/// Builds a `Request` from a libmicrohttpd connection, enforcing the header and body limits (the
/// request line and Host are checked before, by `refusal`).
package enum RequestReader {
    static func read(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        context: RequestContext,
        configuration: ServerConfiguration
    ) -> Result<Request, HTTPError> {
        let headers = collect(connection, kind: .HEADER_KIND)
        if headers.byteCount > configuration.maxHeaderBytes {
            return .failure(HTTPError(
                .requestHeaderFieldsTooLarge, code: "headers_too_large",
                message: "request headers exceed \(configuration.maxHeaderBytes) bytes"))
        }
        let rawPath = String(cString: url)
        guard let segments = decodeSegments(rawPath) else {
            return .failure(.badRequest("the path is not valid percent-encoded UTF-8"))
        }
        guard let query = query(connection) else {
            return .failure(.badRequest("the query is not valid percent-encoded UTF-8"))
        }
        return .success(Request(
            method: HTTPMethod(rawValue: String(cString: method)),
            rawPath: rawPath,
            segments: segments,
            query: query,
            headers: HTTPHeaders(headers.fields),
            body: context.body
        ))
    }

    /// The request to a lean route (`Router.add(_:_:reads:readsQuery:_:)`): a GET or HEAD of its exact
    /// path, with no query unless the route reads one, carrying only the headers the route reads
    /// (`Accept-Encoding` as `prefersGzip` only). Nil when the usual way must be taken (and its answers,
    /// such as the 400 of a query that does not decode, given).
    static func readLean(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        context: RequestContext,
        router: Router,
        configuration: ServerConfiguration
    ) -> (Request, LeanRoute)? {
        // A query (the target is longer than the path: libmicrohttpd leaves the path undecoded) takes the
        // usual way unless the route reads one; oversize headers take it always, for its answers.
        guard context.body.isEmpty else { return nil }
        let pathLength = strlen(url)
        let hasQuery = context.targetLength != pathLength
        let verb: HTTPMethod
        if strcmp(method, "GET") == 0 { verb = .get } else if strcmp(method, "HEAD") == 0 { verb = .head } else { return nil }
        guard let route = router.leanRoute(verb, rawPath: url, length: pathLength), !hasQuery || route.readsQuery
        else { return nil }
        // One walk of the header fields: their size, and every value the route reads.
        let pick = route.pickNames.pick(connection)
        guard pick.bytes <= configuration.maxHeaderBytes else { return nil }
        var query = QueryItems([])
        if hasQuery {
            guard let decoded = self.query(connection) else { return nil }
            query = decoded
        }
        var headers = HTTPHeaders()
        for (index, name) in route.headers.enumerated() {
            if let value = pick.value(index) { headers.add(name, String(cString: value)) }
        }
        var next = route.headers.count
        if route.readsIfRange {
            if headers["Range"] != nil, let value = pick.value(next) { headers.add(LeanRoute.ifRange, String(cString: value)) }
            next += 1
        }
        var request = Request(method: verb, rawPath: route.text, segments: route.segments, query: query, headers: headers)
        if route.readsAcceptEncoding, let value = pick.value(next) {
            request.prefersGzip = AcceptEncoding.prefersGzip(cString: value)
        }
        route.declare(&request)
        return (request, route)
    }

    static func payloadTooLarge(_ configuration: ServerConfiguration) -> HTTPError {
        HTTPError(.payloadTooLarge, code: "payload_too_large",
                  message: "request body exceeds \(configuration.maxBodyBytes) bytes")
    }

    /// `/a/b%2Fc` → `["a", "b/c"]`; `/` → `[]`; nil when a segment does not decode.
    package static func decodeSegments(_ rawPath: String) -> [String]? {
        var rawPath = rawPath
        // Split over the contiguous bytes: indexing the String's UTF-8 view cost ~40 instructions a byte.
        return rawPath.withUTF8 { bytes -> [String]? in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            if bytes.count == 1 { return [] }
            var segments: [String] = []
            var start = 1
            for index in 1...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                // A cut at `/` never splits a UTF-8 sequence, so each segment's bytes are valid text.
                guard let segment = PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[start..<index]), plusIsSpace: false)
                else { return nil }
                segments.append(segment)
                start = index + 1
            }
            return segments
        }
    }

    /// The query's `name=value` pairs, percent-decoded (`+` is a space); nil when one does not decode.
    /// Each part is decoded from libmicrohttpd's bytes as it is visited: no array of raw fields first.
    private static func query(_ connection: OpaquePointer) -> QueryItems? {
        var decoded = DecodedQuery()
        withUnsafeMutablePointer(to: &decoded) { pointer in
            _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { context, _, key, keyLength, value, valueLength in
                let decoded = context!.assumingMemoryBound(to: DecodedQuery.self)
                guard let name = decodeQueryPart(key, keyLength), let value = decodeQueryPart(value, valueLength) else {
                    decoded.pointee.failed = true
                    return .NO
                }
                decoded.pointee.items.append((name: name, value: value))
                return .YES
            }, pointer)
        }
        return decoded.failed ? nil : QueryItems(decoded.items)
    }

    private struct DecodedQuery {
        var items: [QueryItems.Item] = []
        var failed = false
    }

    private struct Collected {
        var fields: [HTTPHeaders.Field] = []
        var byteCount = 0
    }

    private static func collect(_ connection: OpaquePointer, kind: MHD_ValueKind) -> Collected {
        var collected = Collected()
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, kind, { context, _, key, keyLength, value, valueLength in
                let collected = context!.assumingMemoryBound(to: Collected.self)
                let name = key.map { decodeBytes($0, keyLength) } ?? ""
                let text = value.map { decodeBytes($0, valueLength) } ?? ""
                collected.pointee.fields.append((name: name, value: text))
                collected.pointee.byteCount += keyLength + valueLength + 4
                return .YES
            }, pointer)
        }
        return collected
    }

}

/// A query name or value, percent-decoded (`+` is a space), "" when absent; nil when it does not decode.
/// Its bytes are read as text as `decodeBytes` reads them (invalid UTF-8 repaired), then decoded.
private func decodeQueryPart(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String? {
    guard let pointer else { return "" }
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
        let bytes = UnsafeBufferPointer(start: $0, count: length)
        // Without escapes this is the repaired text itself; with them, the repaired text is decoded.
        if let plain = PercentDecoding.plainText(bytes, plusIsSpace: true) { return plain }
        return PercentDecoding.decode(Substring(String(decoding: bytes, as: UTF8.self)), plusIsSpace: true)
    }
}

private func decodeBytes(_ pointer: UnsafePointer<CChar>, _ length: Int) -> String {
    pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
}
