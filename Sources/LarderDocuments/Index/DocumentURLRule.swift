package import Foundation
import LarderFormats

/// Resolves a document's `url` (or its name) against the index URL as RFC 3986 §5 says, and accepts
/// only a result Larder may fetch: http or https with a host.
///
/// `/documents/a.txt` keeps the index's scheme and host, `a.txt` and `../x/a.txt` are taken from the
/// index's folder, `//host/a.txt` keeps only the scheme. Dot segments are removed, absolute URLs
/// included (§5.2.2). The text must already be a URI reference: a space, a non-ASCII character or a
/// bad `%` escape is refused instead of being percent-encoded behind the upstream's back.
package enum DocumentURLRule {
    package static func resolve(_ reference: String, against indexURL: URL) throws(FieldProblem) -> URL {
        guard !reference.isEmpty else { throw FieldProblem("url is empty") }
        guard isURIReference(reference) else {
            throw FieldProblem("url is not an RFC 3986 reference (a space, non-ASCII or other character must be %-encoded)")
        }
        // Escapes are normalized in the reference and again in the result, which the index URL's
        // own escapes joined: a listed URL then resolves to itself (`make fuzz` checks that).
        guard let joined = URL(string: decodingUnreserved(reference), relativeTo: indexURL)?.absoluteURL,
              let resolved = URL(string: decodingUnreserved(joined.absoluteString)) else {
            throw FieldProblem("url '\(excerpt(reference))' is not a valid URL")
        }
        // Judged before dot segments go: `standardized` turns `http:a.txt` (no host) into `http://a.txt`.
        let scheme = resolved.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw FieldProblem("url '\(excerpt(reference))' resolves to \(scheme.isEmpty ? "no scheme" : "scheme '\(excerpt(scheme))'"), not http or https")
        }
        guard let host = resolved.host, !host.isEmpty else {
            throw FieldProblem("url '\(excerpt(reference))' resolves to a URL without a host")
        }
        // Rebuilt from its text so the URL carries no base and compares by its absolute form, with
        // scheme and host in lowercase (RFC 3986 §6.2.2.1: `HTTPS://Example.COM` is `https://example.com`).
        guard var components = URLComponents(url: resolved.standardized, resolvingAgainstBaseURL: false) else {
            throw FieldProblem("url '\(excerpt(reference))' is not a valid URL")
        }
        components.scheme = scheme
        components.percentEncodedHost = components.percentEncodedHost?.lowercased()
        guard let url = components.url.flatMap({ URL(string: $0.absoluteString) }), url.host == host.lowercased(),
              url.scheme == scheme else {
            throw FieldProblem("url '\(excerpt(reference))' is not a valid URL")
        }
        return url
    }

    /// Only RFC 3986's unreserved and reserved characters, and `%` followed by two hex digits.
    static func isURIReference(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard allowed.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    /// RFC 3986 §6.2.2.2: an escaped unreserved character is that character, so `%2E%2E` is decoded to
    /// `..` before dot segments are removed (an upstream would decode it and climb out of the folder).
    /// Other escapes stay as written. `text` is already a URI reference, so every `%` has two hex digits.
    static func decodingUnreserved(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let byte = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
               unreserved.contains(byte) {
                out.append(byte)
                index += 3
                continue
            }
            out.append(bytes[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let unreserved: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

    /// ALPHA DIGIT `-._~` (unreserved), `:/?#[]@` (gen-delims), `!$&'()*+,;=` (sub-delims).
    private static let allowed: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)
    )

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func excerpt(_ text: String) -> String {
        ByteText.excerpt(text, limit: 80)
    }
}
