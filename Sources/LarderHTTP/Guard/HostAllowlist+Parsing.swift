// `--allowed-hosts`' syntax: a comma list of `name`, `name:port`, `[v6]`, `[v6]:port`, `.domain`,
// `.domain:port`, `ip-literals` or `*`.
extension HostAllowlist {
    /// Why a list is refused: a sentence naming the entry.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The word that stands for every IP literal (it is no host name anyone uses).
    public static let ipLiteralsToken = "ip-literals"

    /// Parses a comma list; names are lowercased and lose a trailing dot.
    public init(parsing text: String) throws(ParseError) {
        var rules: [Rule] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = part.trimmingASCIISpaces()
            let rule = try Self.rule(entry)
            if !rules.contains(rule) { rules.append(rule) }
        }
        self.init(rules)
    }

    private static func rule(_ entry: Substring) throws(ParseError) -> Rule {
        let refused = ParseError(description: """
            is not a comma list of host names (name, name:port, .domain for a domain and its subdomains, \
            [v6 literal], \(ipLiteralsToken) or *) ('\(entry)' is not one)
            """)
        if entry == "*" { return .any }
        if entry.lowercased() == ipLiteralsToken { return .ipLiterals }
        var rest = entry
        let domain = rest.first == "."
        if domain { rest = rest.dropFirst() }
        // The name, then an optional port after the last colon outside brackets.
        var name = rest
        var port: Int?
        let nameEnd = rest.first == "[" ? rest.firstIndex(of: "]").map { rest.index(after: $0) } : rest.firstIndex(of: ":")
        if let nameEnd, nameEnd < rest.endIndex {
            guard rest[nameEnd] == ":", let number = Int(rest[rest.index(after: nameEnd)...]),
                  rest[rest.index(after: nameEnd)...].allSatisfy(\.isASCIIDigit), (1...65535).contains(number)
            else { throw refused }
            name = rest[..<nameEnd]
            port = number
        }
        if name.hasSuffix("."), !name.hasSuffix("..") { name = name.dropLast() }
        let lower = name.lowercased()
        guard isName(lower) || (!domain && isBracketedLiteral(lower)) else { throw refused }
        return domain ? .domain(lower, port: port) : .name(lower, port: port)
    }

    /// Labels of letters, digits, `-` and `_`, separated by single dots.
    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
        }
    }

    private static func isBracketedLiteral(_ name: String) -> Bool {
        name.hasPrefix("[") && Array(name.utf8).withUnsafeBufferPointer { isIPLiteral($0) }
    }
}

extension Substring {
    fileprivate func trimmingASCIISpaces() -> Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
