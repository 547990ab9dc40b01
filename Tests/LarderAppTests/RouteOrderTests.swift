import Foundation
import LarderApp
import LarderHTTP
import LarderTesting
import Testing

/// The application's whole route table added in every rotation of its order answers every request
/// as the table in its own order does: a literal segment ranks over a `:name`, so no route needs to be
/// added before another (`/rates/refresh` and `/rates/:date`, `/v1/latest` and `/v1/*rest`,
/// `/v2/openapi.json` and `/v2/*rest`, `/documents/refresh` and `/documents/:name`).
@Suite("Routes need no order", .serialized)
struct RouteOrderTests {
    /// One request of the comparison.
    struct Probe: Sendable {
        let method: String
        let path: String
        var headers: [(String, String)] = []
    }

    /// Answers that change between two asks (counters, uptime): compared by status and type only.
    static let volatile: Set<String> = ["/", "/metrics", "/status", "/ready"]

    /// A GET of every route's paths (`ValidatorTableTests.paths`) and of paths where a literal and a
    /// parameter compete; a PUT (405 and its `Allow`) and a CORS preflight where routes of several
    /// methods share a path.
    static func probes(_ table: [(method: HTTPMethod, pattern: String)]) -> [Probe] {
        let competing = [
            "/rates/refresh", "/rates/latest", "/latest", "/2026-11-20", "/nowhere", "/v1", "/v1/", "/v1/latest",
            "/v1/2026-11-20", "/v1/nowhere", "/v1/openapi.json", "/v2", "/v2/", "/v2/openapi.json", "/v2/nothing",
            "/v2/rates.csv", "/v2/currencies/x", "/documents/refresh", "/documents/welcome.txt",
        ]
        let paths = Set(table.flatMap { ValidatorTableTests.paths($0.pattern) } + competing).sorted()
        let preflight = [("Origin", "https://example.com"), ("Access-Control-Request-Method", "GET")]
        return paths.map { Probe(method: "GET", path: $0) }
            + ["/rates/refresh", "/rates/2026-11-20", "/rates/nonsense", "/documents/refresh", "/documents/welcome.txt", "/v1/latest"]
            .flatMap { [Probe(method: "PUT", path: $0), Probe(method: "OPTIONS", path: $0, headers: preflight)] }
    }

    @Test func everyRotationOfTheApplicationsRoutesAnswersAlike() async throws {
        try await withRatesAndDocuments { larder, _ in
            let application = try #require(larder.application)
            let registrations = LarderApplication.router(
                configuration: application.configuration, rates: application.rates, documents: application.documents,
                metrics: application.metrics, startedAt: Date(), blocking: application.blocking
            ).registrations
            let probes = Self.probes(registrations.map { ($0.method, $0.pattern) })
            let expected = try await Self.answers(registrations, probes)
            #expect(registrations.count >= 30 && probes.count >= 50, "\(registrations.count) routes, \(probes.count) probes")
            let statuses = Set(expected.map { $0.prefix(3) })
            #expect(statuses.isSuperset(of: ["200", "204", "400", "404", "405"]), "the probes reach every kind of answer: \(statuses)")
            for shift in 1..<registrations.count {
                let rotated = Array(registrations[shift...] + registrations[..<shift])
                let answers = try await Self.answers(rotated, probes)
                let differing = zip(probes, zip(answers, expected)).filter { $1.0 != $1.1 }
                    .map { "\($0.method) \($0.path): \($1.0) instead of \($1.1)" }
                #expect(differing.isEmpty, "rotated by \(shift), first \(rotated[0].method) \(rotated[0].pattern): \(differing.prefix(3))")
            }
        }
    }

    /// Each probe's answer (status, `Allow`, and the body unless volatile) from a server whose router
    /// had `registrations` added in that order.
    static func answers(_ registrations: [Router.Registration], _ probes: [Probe]) async throws -> [String] {
        try await withServer(routes: { router in
            for registration in registrations { router.add(registration) }
        }) { server in
            let port = server.port
            return try await onThread {
                try probes.map { probe in
                    let answer = try TestConnection.fetch(port: port, probe.method, probe.path, headers: probe.headers)
                    let body = volatile.contains(probe.path) ? answer.header("Content-Type") ?? "" : answer.text
                    return "\(answer.status) [\(answer.header("Allow") ?? "")] \(body)"
                }
            }
        }
    }
}
