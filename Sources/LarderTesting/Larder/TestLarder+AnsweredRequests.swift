extension TestLarder {
    /// The requests it answered on routes starting with `prefix`, by `route status` (`/v2/providers 304`),
    /// from its own `/metrics`: what a test counts to see what a replica cost its primary.
    public func answeredRequests(under prefix: String) async throws -> [String: Int] {
        let pattern = /larder_http_requests_total\{route="([^"]+)",status="(\d+)"\} (\d+)/
        var counts: [String: Int] = [:]
        for line in try await get("/metrics").text.split(separator: "\n") {
            guard let match = line.wholeMatch(of: pattern), match.1.hasPrefix(prefix) else { continue }
            counts["\(match.1) \(match.2)"] = Int(match.3)
        }
        return counts
    }

    /// What `answeredRequests(under:)` gained while `work` ran, the routes that did not change left out.
    public func requestsAnswered(under prefix: String, during work: () async throws -> Void) async throws -> [String: Int] {
        let before = try await answeredRequests(under: prefix)
        try await work()
        return try await answeredRequests(under: prefix)
            .reduce(into: [String: Int]()) { $0[$1.key] = $1.value - (before[$1.key] ?? 0) }.filter { $0.value != 0 }
    }
}
