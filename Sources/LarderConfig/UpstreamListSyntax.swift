import Foundation

/// How one setting names several upstreams: the split into entries and each entry's `;format=NAME` and `;fallback`.
enum UpstreamListSyntax {
    /// The entries of `raw`: split at newlines (a repeated flag's values), and at commas followed by
    /// optional spaces and `http://` or `https://` (a variable's list), so a comma inside a URL
    /// (`?symbols=USD,GBP`) stays in it. Empty entries are dropped.
    static func entries(_ raw: String) -> [String] {
        var entries: [String] = []
        for line in raw.split(separator: "\n", omittingEmptySubsequences: true) {
            var current = ""
            var rest = Substring(line)
            while let comma = rest.firstIndex(of: ",") {
                let after = rest[rest.index(after: comma)...].drop { $0 == " " }
                let lower: String = after.prefix(8).lowercased()
                if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                    entries.append(current + String(rest[..<comma]))
                    current = ""
                    rest = after
                } else {
                    current += String(rest[...comma])
                    rest = rest[rest.index(after: comma)...]
                }
            }
            entries.append(current + String(rest))
        }
        return entries.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// An entry's URL and its markers, `;format=NAME` and `;fallback`, in either order at its end; an
    /// entry without them is its URL, with no format and no fallback.
    static func split(_ entry: String) -> (url: String, format: String?, fallback: Bool) {
        var url = entry
        var format: String?
        var fallback = false
        for _ in 0..<2 {
            if !fallback, url.lowercased().hasSuffix(";fallback") {
                url = String(url.dropLast(";fallback".count))
                fallback = true
            } else if format == nil, let split = splitFormat(url), split.format != nil {
                (url, format) = (split.url, split.format)
            }
        }
        return (url, format, fallback)
    }

    /// `URL;format=NAME` as the URL and the name; nil without that suffix.
    private static func splitFormat(_ entry: String) -> (url: String, format: String?)? {
        guard let marker = entry.range(of: ";format=", options: [.backwards, .caseInsensitive]) else { return nil }
        let name = entry[marker.upperBound...]
        guard !name.isEmpty, !name.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == ";" }) else {
            return nil
        }
        return (String(entry[..<marker.lowerBound]), String(name))
    }

    /// `raw` with any `user:password@` replaced by `***@`, for error messages.
    static func withoutCredentials(_ raw: String) -> String {
        guard let scheme = raw.range(of: "://") else { return raw }
        let authorityEnd = raw[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? raw.endIndex
        guard let at = raw[scheme.upperBound..<authorityEnd].lastIndex(of: "@") else { return raw }
        return String(raw[..<scheme.upperBound]) + "***" + String(raw[at...])
    }
}
