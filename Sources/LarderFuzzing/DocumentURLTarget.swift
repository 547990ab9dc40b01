import Foundation
import LarderDocuments

extension FuzzTarget {
    /// A document's `url` resolved against the index URL (lines: the reference, then an index URL
    /// to use instead of the default when it is one). What resolves is http(s) with a host, holds no
    /// dot segment, and resolves to itself again: the URL Larder fetches is the one it lists.
    static let documentURL = FuzzTarget("document-url") { input throws(PropertyViolation) in
        let lines = parts(input, 2)
        let base = URL(string: lines[1]).flatMap { ["http", "https"].contains($0.scheme ?? "") && $0.host != nil ? $0 : nil }
            ?? indexURL
        guard let url = try? DocumentURLRule.resolve(lines[0], against: base) else { return }
        try expect(["http", "https"].contains(url.scheme?.lowercased() ?? "") && !(url.host ?? "").isEmpty,
                   "\(lines[0].debugDescription) resolves to \(url.absoluteString.debugDescription)")
        // As sent: `%2F` is data inside a segment, not a separator (RFC 3986 §2.2).
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        try expect(!path.split(separator: "/").contains { $0 == ".." || $0 == "." },
                   "\(lines[0].debugDescription) keeps a dot segment: \(url.absoluteString.debugDescription)")
        let again = try? DocumentURLRule.resolve(url.absoluteString, against: base)
        try expect(again == url, "\(url.absoluteString.debugDescription) resolves to \(String(describing: again?.absoluteString))")
    }
}
