@testable import LarderApp
import LarderHTTP
import LarderTesting
import Testing

@Suite("/health")
struct HealthTests {
    /// The route as a value: matched on a router and answered without a socket, its prepared bytes read back.
    @Test func theRouteAnswersBytesPreparedOnce() throws {
        var router = Router()
        HealthRoutes.register(on: &router)
        guard case .found(.immediate(let handler), _, let route, _) = router.match(.get, ["health"]) else {
            Issue.record("no immediate GET /health route")
            return
        }
        let response = handler(Request(method: .get, rawPath: "/health", segments: ["health"]))
        guard let prepared = response.prepared else {
            Issue.record("/health should answer a prepared response")
            return
        }
        #expect(route == "/health")
        #expect(prepared.status == .ok)
        #expect(prepared.headers["Content-Type"] == "application/json")
        #expect(prepared.headers["Cache-Control"] == "no-store")
        #expect(prepared.body.array == Array("{\"status\":\"ok\"}\n".utf8))
        let again = handler(Request(method: .get, rawPath: "/health", segments: ["health"]))
        guard let same = again.prepared else { return }
        #expect(same === prepared, "every request shares the one response")
    }

    @Test func aRunningLarderAnswersGetAndHead() async throws {
        try await withLarder { larder, _ in
            let health = try await larder.get("/health")
            let head = try await larder.request("HEAD", "/health")
            #expect(health.status == 200)
            #expect(health.json?["status"] as? String == "ok")
            #expect(health.header("Cache-Control") == "no-store")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(health.body.count))
        }
    }
}
