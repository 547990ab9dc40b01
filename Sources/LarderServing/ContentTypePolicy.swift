/// Which `Content-Type` a mirrored document is served with: the index's, when it is safe to show.
///
/// A document's type comes from the upstream index, which Larder does not trust (SPEC §6). A type a
/// browser would run script in — `text/html`, `image/svg+xml`, `application/javascript`, … — would
/// let the upstream run code on Larder's origin, so only an allowlist of passive types is served
/// as declared; anything else, or anything malformed, becomes `application/octet-stream`, which
/// browsers download. Answers also carry `X-Content-Type-Options: nosniff`, so nothing is guessed back.
public enum ContentTypePolicy {
    /// The fallback for types not on the allowlist.
    public static let fallback = "application/octet-stream"

    /// Media types (`type/subtype`, lowercase) served as declared.
    public static let allowed: Set<String> = [
        "text/plain", "text/markdown", "text/csv",
        "application/json", "application/xml", "text/xml",
        "application/pdf",
        "image/png", "image/jpeg", "image/gif", "image/webp",
        "application/zip", "application/gzip", "application/octet-stream",
    ]

    /// Allowed types in which a browser can still run script: an XML document may hold XHTML
    /// `<script>` elements. `FileAnswer` serves these with `Content-Security-Policy: sandbox`.
    public static let sandboxed: Set<String> = ["application/xml", "text/xml"]

    /// The `Content-Type` to serve for the index's `declared` one: the lowercase media type when
    /// allowed, with only a `charset` parameter kept and only for `text/*`.
    public static func served(_ declared: String?) -> String {
        guard let declared, let parsed = MediaType(Array(declared.utf8)[...]), allowed.contains(parsed.essence) else {
            return fallback
        }
        if parsed.essence.hasPrefix("text/"), let charset = parsed.charset {
            return parsed.essence + "; charset=" + charset
        }
        return parsed.essence
    }

    /// True when a served type needs the script sandbox.
    public static func needsSandbox(_ served: String) -> Bool {
        let essence = served.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces.lowercased() } ?? ""
        return sandboxed.contains(essence)
    }
}

/// `type "/" subtype *( OWS ";" OWS [ parameter ] )` (RFC 9110 §8.3.1, §5.6.6), read strictly.
private struct MediaType {
    /// `type/subtype`, lowercase.
    var essence = ""
    /// The `charset` value when it is a token of a plausible length, lowercase.
    var charset: String?

    /// IANA charset names are at most 40 characters; a longer value is not a charset.
    private static let longestCharset = 40

    init?(_ text: ArraySlice<UInt8>) {
        var rest = text.drop(while: isSpace)
        guard let type = Self.token(&rest), rest.first == UInt8(ascii: "/") else { return nil }
        rest = rest.dropFirst()
        guard let subtype = Self.token(&rest) else { return nil }
        essence = String(decoding: type, as: UTF8.self).lowercased() + "/" + String(decoding: subtype, as: UTF8.self).lowercased()
        var charsets: [String] = []
        while true {
            rest = rest.drop(while: isSpace)
            guard let next = rest.first else { break }
            guard next == UInt8(ascii: ";") else { return nil }
            rest = rest.dropFirst().drop(while: isSpace)
            // Empty parameters (`text/plain;` or `;;`) are allowed by the grammar.
            if rest.isEmpty || rest.first == UInt8(ascii: ";") { continue }
            guard let name = Self.token(&rest), rest.first == UInt8(ascii: "=") else { return nil }
            rest = rest.dropFirst()
            let value: [UInt8]
            if rest.first == UInt8(ascii: "\"") {
                guard let quoted = Self.quotedString(&rest) else { return nil }
                value = quoted
            } else {
                guard let plain = Self.token(&rest) else { return nil }
                value = Array(plain)
            }
            if String(decoding: name, as: UTF8.self).lowercased() == "charset" {
                charsets.append(String(decoding: value, as: UTF8.self).lowercased())
            }
        }
        // Two charsets are ambiguous; one that is not a token could smuggle syntax into the header.
        if charsets.count == 1, let only = charsets.first, only.utf8.count <= Self.longestCharset,
           !only.isEmpty, only.utf8.allSatisfy(isTokenCharacter) {
            charset = only
        }
    }

    /// Consumes and returns a non-empty token, or nil when none starts here.
    private static func token(_ rest: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let token = rest.prefix(while: isTokenCharacter)
        guard !token.isEmpty else { return nil }
        rest = rest[token.endIndex...]
        return token
    }

    /// Consumes a quoted-string and returns its unescaped content, or nil when it is not one.
    private static func quotedString(_ rest: inout ArraySlice<UInt8>) -> [UInt8]? {
        var content: [UInt8] = []
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex {
            let byte = rest[index]
            switch byte {
            case UInt8(ascii: "\""):
                rest = rest[(index + 1)...]
                return content
            case UInt8(ascii: "\\"):
                index += 1
                guard index < rest.endIndex, isQuotedPairCharacter(rest[index]) else { return nil }
                content.append(rest[index])
            default:
                guard isQuotedTextCharacter(byte) else { return nil }
                content.append(byte)
            }
            index += 1
        }
        return nil
    }
}

private func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

/// `tchar` (RFC 9110 §5.6.2).
private func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

/// `qdtext`: tab, space and visible characters except `"` and `\`, plus obs-text.
private func isQuotedTextCharacter(_ byte: UInt8) -> Bool {
    byte == 0x09 || byte == 0x20 || byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte) || byte >= 0x80
}

/// What may follow `\` in a quoted-pair.
private func isQuotedPairCharacter(_ byte: UInt8) -> Bool {
    byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
