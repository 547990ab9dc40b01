import LarderApp
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFreshness
import LarderTesting
import Testing

/// SPEC §3 CORS: per resource, `*` for the rates and none for the documents by default; never on
/// the operations routes or POST routes.
@Suite("CORS: rates readable by any page, documents by none unless allowed", .serialized)
struct CORSTests {
    static let origin = ("Origin", "https://app.example")
    static let exposed = "ETag, Age, Cache-Status, Last-Modified"

    /// Rates and the sample upstream's documents, with these CORS settings (the defaults when nil).
    static func withCORS(
        rates: AllowedOrigins? = nil, documents: AllowedOrigins? = nil, _ body: (TestLarder) async throws -> Void
    ) async throws {
        try await withRatesFeed { configuration, upstream in
            configuration.documents = UpstreamResource(url: upstream.url("/documents/index.json"), format: .auto)
            if let rates { configuration.ratesCORS = rates }
            if let documents { configuration.documentsCORS = documents }
        } _: { larder, _ in
            try await body(larder)
        }
    }

    static func preflight(_ larder: TestLarder, _ path: String, origin: String = "https://app.example") async throws -> TestResponse {
        try await larder.request("OPTIONS", path, headers: [
            ("Origin", origin), ("Access-Control-Request-Method", "GET"),
            ("Access-Control-Request-Headers", "if-none-match"),
        ])
    }

    @Test func byDefaultEveryRatesAnswerIsReadableFromAnyOrigin() async throws {
        try await Self.withCORS { larder in
            var answers: [(String, TestResponse)] = []
            for path in ["/rates", "/latest", "/v1/latest?base=USD", "/currencies", "/rates/2026-11-20", "/v1/2026-11-01..",
                         "/rates?base=XXX"] {
                answers.append((path, try await larder.get(path, headers: [Self.origin])))
            }
            let etag = answers[0].1.header("ETag") ?? ""
            let notModified = try await larder.get("/rates", headers: [Self.origin, ("If-None-Match", etag)])
            let head = try await larder.request("HEAD", "/latest", headers: [Self.origin])
            let preflight = try await Self.preflight(larder, "/v1/latest")
            let rangePreflight = try await Self.preflight(larder, "/rates/2026-11-01..2026-11-20")
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
    }

    @Test func byDefaultTheDocumentsOperationsAndPostRoutesCarryNone() async throws {
        try await Self.withCORS { larder in
            try await waitForDocuments(larder)
            var answers: [(String, TestResponse)] = []
            for path in ["/documents", "/documents/handbook.txt", "/health", "/ready", "/status", "/metrics"] {
                answers.append((path, try await larder.get(path, headers: [Self.origin])))
            }
            let documentsPreflight = try await Self.preflight(larder, "/documents")
            let refreshPreflight = try await Self.preflight(larder, "/rates/refresh")
            let healthPreflight = try await Self.preflight(larder, "/health")
            for (path, answer) in answers {
                #expect(answer.status == 200, "\(path)")
                #expect(answer.header("Access-Control-Allow-Origin") == nil, "\(path)")
            }
            // A POST from another origin is refused before the route (SPEC §6), and carries no CORS either.
            let post = try await larder.request("POST", "/rates/refresh", headers: [Self.origin])
            #expect(post.status == 403 && post.errorCode == "cross_site_request")
            #expect(post.header("Access-Control-Allow-Origin") == nil)
            for answer in [documentsPreflight, refreshPreflight, healthPreflight] {
                #expect(answer.status == 405)
                #expect(answer.header("Access-Control-Allow-Origin") == nil)
            }
        }
    }

    @Test func aListEchoesTheMatchingOriginWithVaryOrigin() async throws {
        let allowed = AllowedOrigins.list(["https://app.example", "http://localhost:3000"])
        try await Self.withCORS(rates: allowed, documents: allowed) { larder in
            try await waitForDocuments(larder)
            let app = try await larder.get("/rates", headers: [Self.origin])
            let local = try await larder.get("/rates?symbols=USD", headers: [("Origin", "http://localhost:3000")])
            let other = try await larder.get("/rates", headers: [("Origin", "https://evil.example")])
            let none = try await larder.get("/rates")
            let listing = try await larder.get("/documents", headers: [Self.origin])
            let document = try await larder.get("/documents/handbook.txt", headers: [Self.origin, ("Range", "bytes=0-9")])
            let denied = try await Self.preflight(larder, "/documents", origin: "https://evil.example")
            let granted = try await Self.preflight(larder, "/documents/handbook.txt")
            #expect(app.header("Access-Control-Allow-Origin") == "https://app.example")
            #expect(local.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            for answer in [app, local, document] {
                #expect(answer.values("Vary") == ["Origin"])
                #expect(answer.header("Access-Control-Expose-Headers") == Self.exposed)
            }
            // The sample listing is over 1 KiB: it varies with the encoding too, in a field of its own.
            #expect(listing.values("Vary") == ["Accept-Encoding", "Origin"])
            #expect(listing.header("Access-Control-Expose-Headers") == Self.exposed)
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
    }

    @Test func noneOnTheRatesTakesTheirCORSAway() async throws {
        try await Self.withCORS(rates: AllowedOrigins.none, documents: .any) { larder in
            try await waitForDocuments(larder)
            let rates = try await larder.get("/latest", headers: [Self.origin])
            let preflight = try await Self.preflight(larder, "/latest")
            let documents = try await larder.get("/documents", headers: [Self.origin])
            #expect(rates.header("Access-Control-Allow-Origin") == nil)
            #expect(preflight.status == 405)
            #expect(documents.header("Access-Control-Allow-Origin") == "*")
        }
    }

    /// Until the start-up sync is done: the listing is rendered anew as documents land, so one read
    /// in the middle of the sync may see a listing of fewer documents (under 1 KiB: no gzip variant).
    private func waitForDocuments(_ larder: TestLarder) async throws {
        #expect(try await eventually {
            let documents = larder.application?.documents
            return documents?.hasData == true && documents?.refresher.isRefreshing == false
        })
    }
}
