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
}
