import Foundation
import LarderHTTP
import LarderServing
import Testing

@Suite("Cache headers: max-age, Expires and Cache-Status name one instant")
struct CacheStateTests {
    static let expiry = Date(timeIntervalSince1970: 1_795_446_300)  // Mon, 23 Nov 2026 15:05:00 GMT

    @Test(arguments: [100.5, 1.25, 255_900.75])
    func expiresIsTheExpiryInstantWhateverTheFractionOfNow(secondsBefore: Double) {
        let state = CacheState(
            fetchedAt: Self.expiry - 300_000, expiresAt: Self.expiry, now: Self.expiry - secondsBefore, staleDetail: nil)
        let headers = state.headers()
        #expect(headers["Expires"] == "Mon, 23 Nov 2026 15:05:00 GMT")
        #expect(headers["Cache-Control"] == "public, max-age=\(Int(secondsBefore))")
        #expect(headers["Cache-Status"] == "Larder; hit; ttl=\(Int(secondsBefore))")
    }

    @Test func aStaleCopyIsExpiredEverywhere() {
        let state = CacheState(
            fetchedAt: Self.expiry - 600, expiresAt: Self.expiry, now: Self.expiry + 30.5, staleDetail: "upstream-changed")
        let headers = state.headers()
        #expect(headers["Cache-Control"] == "public, max-age=0")
        #expect(headers["Expires"] == "Mon, 23 Nov 2026 15:05:00 GMT", "in the past: stale for an HTTP/1.0 cache too")
        #expect(headers["Cache-Status"] == "Larder; hit; ttl=-31; detail=upstream-changed")
        #expect(headers["Age"] == "630")
    }

    /// RFC 5861's directives: R the revalidation interval (the ECB calendar's 10-minute polls here),
    /// 24 R for errors; an answer that never changes needs neither.
    @Test func staleDirectivesAreSizedFromTheRevalidationInterval() {
        let state = CacheState(
            fetchedAt: Self.expiry - 600, expiresAt: Self.expiry, now: Self.expiry - 42, staleDetail: nil,
            revalidationSeconds: 600)
        #expect(state.headers()["Cache-Control"] == "public, max-age=42, stale-while-revalidate=600, stale-if-error=14400")
        #expect(state.headers(immutable: true)["Cache-Control"] == "public, max-age=31536000, immutable")
    }
}
