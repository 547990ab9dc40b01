/// A route pattern such as `/rates/:date` or `/files/*path`, matched against decoded segments.
struct PathPattern: Sendable {
    private enum Part: Sendable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    private let parts: [Part]

    init(_ pattern: String) {
        parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            if segment.hasPrefix(":") { return .parameter(String(segment.dropFirst())) }
            if segment.hasPrefix("*") { return .rest(String(segment.dropFirst())) }
            return .literal(String(segment))
        }
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
