/// Decodes `%XX` escapes (and `+` as space in query components) into UTF-8 text.
///
/// Strict on purpose: a malformed escape, invalid UTF-8, or a NUL or other control character is
/// refused rather than guessed at, and decoding happens exactly once.
package enum PercentDecoding {
    package static func decode(_ raw: Substring, plusIsSpace: Bool) -> String? {
        // Most paths and values have nothing to decode: then the text is the answer (no copy for short
        // ones). Checked over the contiguous bytes when there are some: walking the Substring's UTF-8
        // view cost some 300 instructions a query item.
        let plain = raw.utf8.withContiguousStorageIfAvailable { isPlain($0, plusIsSpace: plusIsSpace) }
            ?? isPlain(raw.utf8, plusIsSpace: plusIsSpace)
        if plain { return String(raw) }
        return decodeEscapes(raw.utf8, plusIsSpace: plusIsSpace)
    }

    /// `decode` over contiguous UTF-8 bytes (a path's segment, split without walking a String's views).
    package static func decode(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
        plainText(raw, plusIsSpace: plusIsSpace) ?? decodeEscapes(raw, plusIsSpace: plusIsSpace)
    }

    /// The bytes as text when there is nothing to decode in them, else nil.
    package static func plainText(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
        isPlain(raw, plusIsSpace: plusIsSpace) ? String(decoding: raw, as: UTF8.self) : nil
    }

    private static func decodeEscapes(_ raw: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isPlain(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> Bool {
        bytes.allSatisfy { byte in
            byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "%") && (byte != UInt8(ascii: "+") || !plusIsSpace)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
