/// Evaluates `If-None-Match` and `If-Modified-Since` (RFC 9110 §13) against a representation's validators.
public enum ConditionalRequest {
    /// The request headers this reads (for routes that declare what they read: `Router.add(_:_:reads:_:)`).
    public static let headers = ["If-None-Match", "If-Modified-Since"]

    /// True when the client's copy is current and a 304 is the answer. `If-None-Match`, when present, wins.
    public static func isNotModified(_ headers: HTTPHeaders, etag: String?, lastModified: Int?) -> Bool {
        if let ifNoneMatch = headers["If-None-Match"] {
            guard let etag else { return false }
            return matches(ifNoneMatch, etag: etag)
        }
        // Without a Last-Modified the field is not even read: an answer that has none (a fixed
        // document) may declare `If-None-Match` alone on its lean route.
        if let lastModified, let ifModifiedSince = headers["If-Modified-Since"],
           let since = HTTPDate.parse(ifModifiedSince) {
            return lastModified <= since
        }
        return false
    }

    /// Weak comparison, as `If-None-Match` requires: `W/"x"` matches `"x"`; `*` matches anything.
    /// Split and compared as bytes, not `Character`s: a character that joins the one after it
    /// (U+0602, a prepend mark) would otherwise swallow the comma after it (found by `make fuzz`).
    package static func matches(_ list: String, etag: String) -> Bool {
        let wanted = opaque(etag.utf8[...])
        for candidate in list.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let tag = trimmed(candidate)
            if tag.elementsEqual("*".utf8) || opaque(tag).elementsEqual(wanted) { return true }
        }
        return false
    }

    private static func opaque(_ tag: Substring.UTF8View) -> Substring.UTF8View {
        tag.starts(with: "W/".utf8) ? tag.dropFirst(2) : tag
    }

    /// Without the spaces and tabs around a list element (RFC 9110 §5.6.1's OWS).
    private static func trimmed(_ element: Substring.UTF8View) -> Substring.UTF8View {
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var slice = element
        while let first = slice.first, blank(first) { slice = slice.dropFirst() }
        while let last = slice.last, blank(last) { slice = slice.dropLast() }
        return slice
    }
}
