import Foundation
import LarderFormats

/// Resolves a document's `url` (or its name) against the index URL as RFC 3986 §5 says, and accepts
/// only a result Larder may fetch: http or https with a host.
///
/// `/documents/a.txt` keeps the index's scheme and host, `a.txt` and `../x/a.txt` are taken from the
/// index's folder, `//host/a.txt` keeps only the scheme. Dot segments are removed, absolute URLs
/// included (§5.2.2). The text must already be a URI reference: a space, a non-ASCII character or a
/// bad `%` escape is refused instead of being percent-encoded behind the upstream's back.
enum DocumentURLRule {
    static func resolve(_ reference: String, against indexURL: URL) throws(FieldProblem) -> URL {
        guard !reference.isEmpty else { throw FieldProblem("url is empty") }
        guard isURIReference(reference) else {
            throw FieldProblem("url is not an RFC 3986 reference (a space, non-ASCII or other character must be %-encoded)")
        }
        guard let resolved = URL(string: reference, relativeTo: indexURL)?.absoluteURL else {
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
        // Rebuilt from its text so the URL carries no base and compares by its absolute form.
        guard let url = URL(string: resolved.standardized.absoluteString), url.host == host,
              url.scheme == resolved.scheme else {
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
