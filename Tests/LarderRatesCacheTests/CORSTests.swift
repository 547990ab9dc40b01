import LarderConfig
import LarderTesting
import Testing

/// SPEC §3 CORS: per resource, `*` for the rates and none for the documents by default; never on
/// the operations routes or POST routes.
@Suite("CORS: rates readable by any page, documents by none unless allowed", .serialized)
struct CORSTests {
    static let origin = ("Origin", "https://app.example")
    static let exposed = "ETag, Age, Cache-Status, Last-Modified"

    static func harness(rates: AllowedOrigins? = nil, documents: AllowedOrigins? = nil) async throws -> RatesHarness {
        let harness = try await RatesHarness()
        harness.configuration.documents = UpstreamResource(url: harness.upstreamURL("/documents/index.json"), format: .auto)
        if let rates { harness.configuration.ratesCORS = rates }
        if let documents { harness.configuration.documentsCORS = documents }
        try harness.start()
        return harness
    }

    static func preflight(_ harness: RatesHarness, _ path: String, origin: String = "https://app.example") async throws -> TestResponse {
        try await harness.request("OPTIONS", path, headers: [
            ("Origin", origin), ("Access-Control-Request-Method", "GET"),
            ("Access-Control-Request-Headers", "if-none-match"),
        ])
    }

    @Test func byDefaultEveryRatesAnswerIsReadableFromAnyOrigin() async throws {
        let harness = try await Self.harness()
        var answers: [(String, TestResponse)] = []
        for path in ["/rates", "/latest", "/v1/latest?base=USD", "/currencies", "/rates/2026-11-20", "/v1/2026-11-01..",
                     "/rates?base=XXX"] {
            answers.append((path, try await harness.get(path, headers: [Self.origin])))
        }
        let etag = answers[0].1.header("ETag") ?? ""
        let notModified = try await harness.get("/rates", headers: [Self.origin, ("If-None-Match", etag)])
        let head = try await harness.request("HEAD", "/latest", headers: [Self.origin])
        let preflight = try await Self.preflight(harness, "/v1/latest")
        let rangePreflight = try await Self.preflight(harness, "/rates/2026-11-01..2026-11-20")
        await harness.finish()
        for (path, answer) in answers + [("304", notModified), ("HEAD", head)] {
            #expect(answer.header("Access-Control-Allow-Origin") == "*", "\(path)")
            #expect(answer.header("Access-Control-Expose-Headers") == Self.exposed, "\(path)")
            #expect(answer.header("Vary") == nil, "\(path): * does not depend on Origin")
        }
        #expect(notModified.status == 304)
        for answer in [preflight, rangePreflight] {
            #expect(answer.status == 204)
            #expect(answer.header("Access-Control-Allow-Origin") == "*")
            #expect(answer.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
            #expect(answer.header("Access-Control-Allow-Headers")?.contains("If-None-Match") == true)
            #expect(answer.header("Access-Control-Max-Age") == "86400")
        }
    }

    @Test func byDefaultTheDocumentsOperationsAndPostRoutesCarryNone() async throws {
        let harness = try await Self.harness()
        try await waitForDocuments(harness)
        var answers: [(String, TestResponse)] = []
        for path in ["/documents", "/documents/handbook.txt", "/health", "/ready", "/status", "/metrics"] {
            answers.append((path, try await harness.get(path, headers: [Self.origin])))
        }
        answers.append(("POST", try await harness.request("POST", "/rates/refresh", headers: [Self.origin])))
        let documentsPreflight = try await Self.preflight(harness, "/documents")
        let refreshPreflight = try await Self.preflight(harness, "/rates/refresh")
        let healthPreflight = try await Self.preflight(harness, "/health")
        await harness.finish()
        for (path, answer) in answers {
            #expect(answer.status == 200, "\(path)")
            #expect(answer.header("Access-Control-Allow-Origin") == nil, "\(path)")
        }
        for answer in [documentsPreflight, refreshPreflight, healthPreflight] {
            #expect(answer.status == 405)
            #expect(answer.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func aListEchoesTheMatchingOriginWithVaryOrigin() async throws {
        let allowed = AllowedOrigins.list(["https://app.example", "http://localhost:3000"])
        let harness = try await Self.harness(rates: allowed, documents: allowed)
        try await waitForDocuments(harness)
        let app = try await harness.get("/rates", headers: [Self.origin])
        let local = try await harness.get("/rates?symbols=USD", headers: [("Origin", "http://localhost:3000")])
        let other = try await harness.get("/rates", headers: [("Origin", "https://evil.example")])
        let none = try await harness.get("/rates")
        let listing = try await harness.get("/documents", headers: [Self.origin])
        let document = try await harness.get("/documents/handbook.txt", headers: [Self.origin, ("Range", "bytes=0-9")])
        let denied = try await Self.preflight(harness, "/documents", origin: "https://evil.example")
        let granted = try await Self.preflight(harness, "/documents/handbook.txt")
        await harness.finish()
        #expect(app.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(local.header("Access-Control-Allow-Origin") == "http://localhost:3000")
        for answer in [app, local, listing, document] {
            #expect(answer.header("Vary") == "Origin")
            #expect(answer.header("Access-Control-Expose-Headers") == Self.exposed)
        }
        #expect(listing.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(document.status == 206 && document.header("Access-Control-Allow-Origin") == "https://app.example")
        for answer in [other, none] {
            #expect(answer.status == 200)
            #expect(answer.header("Access-Control-Allow-Origin") == nil)
            #expect(answer.header("Vary") == "Origin", "shared caches must keep the variants apart")
        }
        #expect(denied.status == 204 && denied.header("Access-Control-Allow-Origin") == nil)
        #expect(denied.header("Access-Control-Allow-Methods") == nil)
        #expect(granted.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(granted.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
    }

    @Test func noneOnTheRatesTakesTheirCORSAway() async throws {
        let harness = try await Self.harness(rates: AllowedOrigins.none, documents: .any)
        try await waitForDocuments(harness)
        let rates = try await harness.get("/latest", headers: [Self.origin])
        let preflight = try await Self.preflight(harness, "/latest")
        let documents = try await harness.get("/documents", headers: [Self.origin])
        await harness.finish()
        #expect(rates.header("Access-Control-Allow-Origin") == nil)
        #expect(preflight.status == 405)
        #expect(documents.header("Access-Control-Allow-Origin") == "*")
    }

    private func waitForDocuments(_ harness: RatesHarness) async throws {
        for _ in 0..<500 where harness.app?.documents?.hasData != true {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
