/// A `Host` field's value read once: RFC 3986 `host [":" port]`, a bracketed IP literal or a
/// reg-name (unreserved, pct-encoded, sub-delims; an IPv4 address is one too), then digits after a
/// colon. One pass over the bytes, on every request, for both the shape check (RFC 9112 §3.2) and the
/// allowlist (`HostAllowlist.allows`).
struct HostField {
    /// Where the name ends: at the colon before the port, or at the end.
    let nameEnd: Int
    /// The port; nil without a colon, -1 when it is empty or past 65535.
    let port: Int?

    /// Nil when `bytes` is not a host and optional port. Empty is a host (RFC 9112 §3.2: no authority).
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        var index = 0
        if count > 0, bytes[0] == UInt8(ascii: "[") {
            index = 1
            while index < count, bytes[index] != UInt8(ascii: "]") {
                guard Self.isRegNameByte(bytes[index]) || bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
            // A closing bracket after at least one byte.
            guard index < count, index > 1 else { return nil }
            index += 1
        } else {
            while index < count, Self.isRegNameByte(bytes[index]) { index += 1 }
        }
        nameEnd = index
        guard index < count else {
            port = nil
            return
        }
        guard bytes[index] == UInt8(ascii: ":") else { return nil }
        var value = 0
        var digits = 0
        for byte in bytes[(index + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            // Past five digits the value no longer matters (-1), and must not overflow.
            if digits < 6 { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
            digits += 1
        }
        port = digits == 0 || digits > 5 || value > 65535 ? -1 : value
    }

    /// unreserved, the "%" of pct-encoded, sub-delims: a bit per ASCII byte, as it runs for every
    /// byte of every request's Host (a switch compiled to a chain of comparisons).
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        byte < 64 ? (lowBytes >> UInt64(byte)) & 1 != 0 : byte < 128 && (highBytes >> UInt64(byte - 64)) & 1 != 0
    }

    /// Bytes 0–63 allowed in a reg-name, a bit each: `!$%&'()*+,-.` `0-9` `;=` (HostFieldTests checks the masks).
    static let lowBytes: UInt64 = 0x2BFF7FF200000000
    /// Bytes 64–127 allowed in a reg-name, a bit each: `A-Z` `_` `a-z` `~`.
    static let highBytes: UInt64 = 0x47FFFFFE87FFFFFE
}
