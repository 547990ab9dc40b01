@testable import LarderHTTP
import Testing

/// The Fetch standard's CORS as `CORSPolicy` decides it: which headers an answer or a preflight
/// carries for a request's `Origin` (the routes' use of it runs over sockets in the rates tests).
@Suite("CORSPolicy: answer and preflight headers")
struct CORSPolicyTests {
    static let listed = CORSPolicy.origins(["https://a.example", "https://b.example"])

    /// The headers as `name: value` lines, in order, so a comparison shows the whole set.
    static func lines(_ headers: HTTPHeaders) -> [String] {
        headers.map { "\($0.name): \($0.value)" }
    }

    @Test func eachPolicyPicksAVariantByOrigin() {
        #expect(CORSPolicy.none.variant(origin: "https://a.example") == nil)
        #expect(CORSPolicy.anyOrigin.variant(origin: nil) == .anyOrigin)
        #expect(CORSPolicy.anyOrigin.variant(origin: "https://evil.example") == .anyOrigin)
        #expect(Self.listed.variant(origin: "https://b.example") == .origin(1))
        #expect(Self.listed.variant(origin: "https://B.example") == .varyOnly, "origins compare byte for byte")
        #expect(Self.listed.variant(origin: "https://a.example/") == .varyOnly)
        #expect(Self.listed.variant(origin: nil) == .varyOnly)
    }

    @Test func answersNameTheirOriginAndExposeTheirValidators() {
        #expect(Self.lines(CORSPolicy.anyOrigin.headers(.anyOrigin)) == [
            "Access-Control-Allow-Origin: *",
            "Access-Control-Expose-Headers: ETag, Age, Cache-Status, Last-Modified",
        ])
        #expect(Self.lines(Self.listed.headers(.origin(0))) == [
            "Access-Control-Allow-Origin: https://a.example",
            "Access-Control-Expose-Headers: ETag, Age, Cache-Status, Last-Modified",
            "Vary: Origin",
        ])
        #expect(Self.lines(Self.listed.headers(.varyOnly)) == ["Vary: Origin"], "shared caches keep the answers apart")
        #expect(Self.lines(Self.listed.headers(.origin(2))).isEmpty, "no such origin")
        #expect(Self.lines(CORSPolicy.anyOrigin.headers(.origin(0))).isEmpty)
    }

    @Test(arguments: ["GET", "HEAD", nil] as [String?])
    func aPreflightForAReadIsGranted(method: String?) {
        let response = Self.listed.preflight(origin: "https://b.example", method: method)
        #expect(response.status == .noContent)
        #expect(Self.lines(response.headers) == [
            "Access-Control-Allow-Origin: https://b.example",
            "Vary: Origin",
            "Access-Control-Allow-Methods: GET, HEAD, OPTIONS",
            "Access-Control-Allow-Headers: If-None-Match, If-Modified-Since, If-Range, Range",
            "Access-Control-Max-Age: 86400",
            "Allow: GET, HEAD, OPTIONS",
            "Cache-Control: no-store",
        ])
    }

    @Test func aPreflightForAWriteOrAnUnlistedOriginGrantsNothing() {
        let write = CORSPolicy.anyOrigin.preflight(origin: "https://a.example", method: "POST")
        let unlisted = Self.listed.preflight(origin: "https://c.example", method: "GET")
        let closed = CORSPolicy.none.preflight(origin: "https://a.example", method: "GET")
        #expect(Self.lines(write.headers) == ["Allow: GET, HEAD, OPTIONS", "Cache-Control: no-store"])
        #expect(Self.lines(unlisted.headers) == ["Vary: Origin", "Allow: GET, HEAD, OPTIONS", "Cache-Control: no-store"])
        #expect(Self.lines(closed.headers) == ["Allow: GET, HEAD, OPTIONS", "Cache-Control: no-store"])
        #expect([write, unlisted, closed].allSatisfy { $0.status == .noContent })
    }

    @Test func variantsTakeDistinctSlots() {
        let slots = [CORSVariant.anyOrigin, .varyOnly, .origin(0), .origin(1)].map(\.slot)
        #expect(slots == [0, 1, 2, 3])
    }
}
