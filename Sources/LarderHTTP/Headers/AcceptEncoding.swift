import Glibc

/// Reads `Accept-Encoding` (RFC 9110 §12.5.3) for the one content coding Larder offers besides
/// identity: gzip. Byte by byte, without allocating, as it runs on the hot path.
///
/// gzip is chosen when `gzip` (or `x-gzip`, §8.4.1.3, or else `*`) has a weight above 0 and no
/// lower than identity's (`identity`, or else `*`; unlisted, identity competes with nothing); a tie
/// goes to gzip. Tokens and the `q` name are case-insensitive. A coding listed twice keeps its lower
/// weight, and an element whose parameters are not one valid `q=` weight counts as weight 0, so a
/// refusal is never outvoted. Without any `Accept-Encoding` the answer is identity: RFC 9110 would
/// allow any coding then, but clients that send none (curl, wrk, scripts) expect the bytes as they are.
public enum AcceptEncoding {
    public static let header = "Accept-Encoding"

    /// True when the request's `Accept-Encoding` fields (one comma list, however many there are) make
    /// gzip the answer.
    public static func prefersGzip(_ headers: HTTPHeaders) -> Bool {
        var weights = Weights()
        for field in headers where field.name.caseInsensitiveEquals(header) {
            weights.read(field.value)
        }
        return weights.prefersGzip
    }

    /// The same for the value of one `Accept-Encoding` field.
    public static func prefersGzip(_ value: String) -> Bool {
        var weights = Weights()
        weights.read(value)
        return weights.prefersGzip
    }

    /// The same for a field's bytes as libmicrohttpd holds them, read in place (lean routes).
    package static func prefersGzip(cString value: UnsafePointer<CChar>) -> Bool {
        var weights = Weights()
        let count = strlen(value)
        value.withMemoryRebound(to: UInt8.self, capacity: count) {
            weights.read(UnsafeBufferPointer(start: $0, count: count))
        }
        return weights.prefersGzip
    }
}

/// The lowest weight each coding Larder knows was given, in thousandths; nil when not listed.
private struct Weights {
    var gzip: Int?
    var identity: Int?
    var any: Int?

    var prefersGzip: Bool {
        let gzip = gzip ?? any ?? 0
        guard gzip > 0 else { return false }
        guard let identity = identity ?? any else { return true }
        return gzip >= identity
    }

    mutating func read(_ value: String) {
        var value = value
        // Contiguous already for every header value (decoded from libmicrohttpd's bytes): no copy.
        value.withUTF8 { read($0) }
    }

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            element(bytes, start, end)
            start = end + 1
        }
    }

    /// One list element, `bytes[lower..<upper]`: `OWS coding *( OWS ";" OWS parameter ) OWS`.
    private mutating func element(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) {
        var semicolon = lower
        while semicolon < upper, bytes[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        let (start, end) = trimmed(bytes, lower, semicolon)
        let name = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let weight = Self.weight(bytes, semicolon, upper)
        if equalsIgnoringCase(name, "gzip") || equalsIgnoringCase(name, "x-gzip") {
            gzip = min(gzip ?? weight, weight)
        } else if equalsIgnoringCase(name, "identity") {
            identity = min(identity ?? weight, weight)
        } else if equalsIgnoringCase(name, "*") {
            any = min(any ?? weight, weight)
        }
    }

    /// The weight the parameters in `bytes[semicolon..<upper]` give: 1000 with none, the lowest `q`,
    /// or 0 when any parameter is not `q=` and a qvalue (`gzip;`, `gzip;q=2`, `gzip;level=9`).
    private static func weight(_ bytes: UnsafeBufferPointer<UInt8>, _ semicolon: Int, _ upper: Int) -> Int {
        var weight = 1000
        var position = semicolon
        while position < upper {
            var next = position + 1
            while next < upper, bytes[next] != UInt8(ascii: ";") { next += 1 }
            let (start, end) = trimmed(bytes, position + 1, next)
            guard end - start >= 3, bytes[start] | 0x20 == UInt8(ascii: "q"), bytes[start + 1] == UInt8(ascii: "="),
                  let q = qvalue(UnsafeBufferPointer(rebasing: bytes[(start + 2)..<end])) else { return 0 }
            weight = min(weight, q)
            position = next
        }
        return weight
    }

    /// `( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths (RFC 9110 §12.4.2).
    private static func qvalue(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = text.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        guard text.count > 1 else { return Int(first - UInt8(ascii: "0")) * 1000 }
        guard text[1] == UInt8(ascii: "."), text.count <= 5 else { return nil }
        var thousandths = 0
        var scale = 100
        for digit in text[2...] {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        if first == UInt8(ascii: "1") { return thousandths == 0 ? 1000 : nil }
        return thousandths
    }
}

/// `bytes[lower..<upper]` without the spaces and tabs around it (RFC 9110 §5.6.1's OWS), as bounds.
private func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> (Int, Int) {
    var start = lower, end = upper
    while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
    while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
    return (start, end)
}

/// ASCII case-insensitive equality with a lowercase literal (`gzip`, `x-gzip`, `identity`, `*`).
private func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount else { return false }
    let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    for (byte, wanted) in zip(bytes, expected) {
        let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        guard lowered == wanted else { return false }
    }
    return true
}
