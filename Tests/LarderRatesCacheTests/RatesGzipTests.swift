import Foundation
import LarderTesting
import Testing

/// Which rates answers are gzipped: those over 1 KiB (series, a large feed's day), not `/rates` of
/// the ECB's thirty-odd currencies.
@Suite("Rates: gzip for answers over 1 KiB", .serialized)
struct RatesGzipTests {
    static let gzip = ("Accept-Encoding", "gzip")
    /// Thirty days of the five test currencies: a series of about 2.4 KiB.
    static let month = ECB.document((1...30).map { (String(format: "2026-11-%02d", $0), ECB.rates) })

    @Test func smallAnswersStayIdentityWithoutVary() async throws {
        try await withRatesFeed(Self.month) { larder, _ in
            for path in ["/rates", "/latest", "/currencies", "/v1/currencies", "/rates/2026-11-03", "/rates?base=USD"] {
                let answer = try await larder.get(path, headers: [Self.gzip])
                #expect(answer.status == 200, "\(path)")
                #expect(answer.body.count <= 1024, "\(path)")
                #expect(answer.header("Content-Encoding") == nil, "\(path)")
                #expect(answer.values("Vary").isEmpty, "\(path)")
            }
        }
    }

    @Test func aSeriesIsGzippedWithCORSAsBefore() async throws {
        try await withRatesFeed(Self.month) { larder, _ in
            let origin = ("Origin", "https://app.example")
            for path in ["/rates/2026-11-01..", "/v1/2026-11-01..2026-11-30", "/2026-11-01..?base=USD"] {
                let identity = try await larder.get(path, headers: [origin])
                let gzip = try await larder.get(path, headers: [Self.gzip, origin])
                let again = try await larder.get(path, headers: [Self.gzip, ("If-None-Match", gzip.header("ETag") ?? "")])
                #expect(identity.body.count > 1024, "\(path)")
                #expect(gzip.header("Content-Encoding") == "gzip", "\(path)")
                #expect(gunzip(gzip.body) == identity.body, "\(path)")
                #expect(again.status == 304 && again.values("Vary") == ["Accept-Encoding"], "\(path)")
                for answer in [identity, gzip] {
                    #expect(answer.values("Vary") == ["Accept-Encoding"], "\(path)")
                    #expect(answer.header("Access-Control-Allow-Origin") == "*", "\(path)")
                    #expect(answer.header("Access-Control-Expose-Headers") == CORSTests.exposed, "\(path)")
                }
            }
        }
    }

    @Test func theNewestDayOfALargeFeedIsGzippedThroughItsLeanRoute() async throws {
        // 120 codes AAA, AAB, …: a `/rates` of about 1.9 KiB.
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let codes: [String] = (0..<120).map { (index: Int) -> String in
            String([letters[index / 676], letters[index / 26 % 26], letters[index % 26]])
        }
        let feed = ECB.document([("2026-11-20", codes.map { ($0, "1.2345") })])
        try await withRatesFeed(feed) { larder, _ in
            let identity = try await larder.get("/rates")
            let gzip = try await larder.get("/rates", headers: [Self.gzip])
            let head = try await larder.request("HEAD", "/v1/latest", headers: [Self.gzip])
            #expect(identity.body.count > 1024)
            #expect(gunzip(gzip.body) == identity.body)
            #expect(gzip.header("ETag") == identity.header("ETag").map { String($0.dropLast()) + "-gzip\"" })
            #expect(head.header("Content-Length") == String(gzip.body.count) && head.header("Content-Encoding") == "gzip")
        }
    }
}
