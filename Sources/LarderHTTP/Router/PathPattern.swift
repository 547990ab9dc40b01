/// A route pattern such as `/rates/:date` or `/files/*path`, matched against decoded segments.
struct PathPattern: Sendable {
    private enum Part: Sendable {
        case literal(String)
        case parameter(String)
        case rest(String)

        /// Where the part ranks at its position: a literal before a `:name` before a `*name`.
        var rank: Int {
            switch self {
            case .literal: 0
            case .parameter: 1
            case .rest: 2
            }
        }
    }

    private let parts: [Part]

    init(_ pattern: String) {
        parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            if segment.hasPrefix(":") { return .parameter(String(segment.dropFirst())) }
            if segment.hasPrefix("*") { return .rest(String(segment.dropFirst())) }
            return .literal(String(segment))
        }
    }

    /// The first segment when it is literal: only a path beginning with it can match.
    var firstLiteral: String? {
        if case .literal(let text) = parts.first { return text }
        return nil
    }

    /// Whether `self` is tried before `other`, or nil when the two have the same shape (the same literals
    /// and captures in the same places, whatever the captures' names). At the first part where they
    /// differ, a literal ranks over a `:name`, which ranks over a `*name` (Hummingbird's trie's rule),
    /// so the most specific pattern matching a path is the one found first, whatever the order routes
    /// were added in. Literals compare by text and a shorter pattern comes first only to make the order
    /// total: two such patterns never match the same path.
    func precedes(_ other: PathPattern) -> Bool? {
        for (part, otherPart) in zip(parts, other.parts) {
            if part.rank != otherPart.rank { return part.rank < otherPart.rank }
            if case .literal(let text) = part, case .literal(let otherText) = otherPart, text != otherText {
                return text < otherText
            }
        }
        return parts.count == other.parts.count ? nil : parts.count < other.parts.count
    }

    /// The captured parameters when the segments match, nil otherwise.
    func match(_ segments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, part) in parts.enumerated() {
            switch part {
            case .rest(let name):
                guard index < segments.count else { return nil }
                parameters[name] = segments[index...].joined(separator: "/")
                return parameters
            case .literal(let text):
                guard index < segments.count, segments[index] == text else { return nil }
            case .parameter(let name):
                guard index < segments.count, !segments[index].isEmpty else { return nil }
                parameters[name] = segments[index]
            }
        }
        return segments.count == parts.count ? parameters : nil
    }
}
