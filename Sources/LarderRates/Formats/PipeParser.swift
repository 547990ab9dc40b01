import LarderFormats

/// The pipe format (SPEC §5): one `CODE|Name|rate` per line, base EUR, no date of its own.
///
/// The rules are strict, because a half-understood file must never replace a good cached one:
/// - UTF-8 only (a leading BOM is skipped); lines end in LF or CRLF, a bare CR is malformed.
/// - Blank lines (empty, or only spaces and tabs) are skipped anywhere, so a trailing newline is fine.
/// - Every other line has exactly three `|`-separated fields. Spaces and tabs around a field are
///   trimmed, since hand-aligned columns are common and the trim cannot change a value's meaning;
///   inside a field nothing is altered.
/// - The code is three uppercase letters, the name is non-empty without control characters, the rate a
///   plain positive decimal (`1.0862`; no comma, sign or exponent). No comments, no header line.
enum PipeParser {
    static let base = "EUR"

    /// One set dated `date` (the fetch day, UTC), or the reason the whole body is refused.
    static func parse(_ body: [UInt8], date: RateDate) throws(RatesFormatError) -> [RateSet] {
        let text = body[ByteText.skipByteOrderMark(body)...]
        guard String(validating: text, as: UTF8.self) != nil else {
            throw RatesFormatError("pipe: the body is not valid UTF-8")
        }
        var collector = RateCollector(format: "pipe", context: "body")
        for (offset, rawLine) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            collector.context = "line \(offset + 1)"
            var line = rawLine[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if trimmed(line).isEmpty { continue }
            let fields = line.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map(trimmed)
            guard fields.count == 3 else {
                throw collector.fail("expected CODE|Name|rate, found \(fields.count) field(s) in '\(excerpt(line))'")
            }
            guard !fields[1].isEmpty else { throw collector.fail("empty currency name") }
            guard !fields.contains(where: { $0.contains(where: isControl) }) else {
                throw collector.fail("control character in '\(excerpt(line))'")
            }
            try collector.add(code: string(fields[0]), rate: string(fields[2]), name: string(fields[1]))
        }
        collector.context = "body"
        return [try collector.rateSet(date: date, base: base)]
    }

    private static func trimmed(_ field: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = field.firstIndex(where: { !isBlank($0) }),
              let last = field.lastIndex(where: { !isBlank($0) }) else { return [] }
        return field[first...last]
    }

    /// C0 controls (a stray CR or NUL among them) and DEL; a name is display text, never binary.
    private static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }

    /// The body was validated as UTF-8 and fields are cut at ASCII bytes, so decoding cannot fail.
    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func excerpt(_ bytes: ArraySlice<UInt8>) -> String {
        ByteText.excerpt(string(bytes))
    }
}
