import LarderFormats
import LarderHTTP

extension FuzzTarget {
    /// `If-None-Match` against an ETag, and `If-Modified-Since` as an HTTP date (lines: the ETag, the
    /// list, the date). A date that parses names a real instant that formats and reads back to itself;
    /// a list holding the ETag itself, weak or strong, always matches.
    static let conditional = FuzzTarget("conditional") { input throws(PropertyViolation) in
        let lines = parts(input, 3)
        let (etag, list, date) = (lines[0], lines[1], lines[2])
        if let seconds = HTTPDate.parse(date) {
            let formatted = HTTPDate.format(secondsSince1970: seconds)
            try expect(HTTPDate.parse(formatted) == seconds,
                       "\(date.debugDescription) is \(seconds) s, formatted \(formatted.debugDescription), which reads back as \(String(describing: HTTPDate.parse(formatted)))")
            try checkRealDay(date, seconds: seconds)
            var headers = HTTPHeaders()
            headers.add("If-Modified-Since", date)
            try expect(ConditionalRequest.isNotModified(headers, etag: nil, lastModified: seconds),
                       "not 304 for a copy exactly as old as the representation")
            try expect(!ConditionalRequest.isNotModified(headers, etag: nil, lastModified: seconds + 1),
                       "304 for a copy older than the representation")
        }
        // Larder's ETags are strong (quoted, no `W/`), as the list's weak forms assume.
        // Bytes, not Characters: `,` followed by a combining mark is one Character that is no comma.
        guard etag.hasPrefix("\""), !etag.utf8.contains(UInt8(ascii: ",")), etag.utf8.last.map({ $0 != 0x20 && $0 != 0x09 }) == true else { return }
        try expect(ConditionalRequest.matches(etag, etag: etag), "\(etag.debugDescription) does not match itself")
        try expect(ConditionalRequest.matches(list + "," + etag, etag: etag), "\(etag.debugDescription) not found in a list")
        try expect(ConditionalRequest.matches("W/" + etag, etag: etag), "the weak form of \(etag.debugDescription)")
        _ = ConditionalRequest.matches(list, etag: etag)
    }

    /// The day of the month the text spells is the instant's own: no 31 February read as 3 March.
    private static func checkRealDay(_ text: String, seconds: Int) throws(PropertyViolation) {
        let days = seconds >= 0 ? seconds / 86_400 : -((86_399 - seconds) / 86_400)
        let civil = RFC3339.civil(fromDays: Int64(days))
        // The parser's own tokens: IMF-fixdate and RFC 850 give the day second, asctime third.
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" })
        let day = tokens.count == 8 ? tokens[1] : tokens[2]
        try expect(Int(day) == civil.day, "\(text.debugDescription) is read as day \(civil.day) of month \(civil.month)")
    }
}
