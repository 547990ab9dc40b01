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
        if let ifModifiedSince = headers["If-Modified-Since"], let lastModified,
           let since = HTTPDate.parse(ifModifiedSince) {
            return lastModified <= since
        }
        return false
    }

    /// Weak comparison, as `If-None-Match` requires: `W/"x"` matches `"x"`; `*` matches anything.
    package static func matches(_ list: String, etag: String) -> Bool {
        let wanted = opaque(etag)
        for candidate in list.split(separator: ",") {
            let tag = candidate.trimmingCharacters(in: " \t")
            if tag == "*" || opaque(tag) == wanted { return true }
        }
        return false
    }

    private static func opaque(_ tag: some StringProtocol) -> Substring {
        let text = Substring(tag)
        return text.hasPrefix("W/") ? text.dropFirst(2) : text
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters of `set` (the fuzz targets trim alike).
    package func trimmingCharacters(in set: String) -> Substring {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return slice
    }
}
