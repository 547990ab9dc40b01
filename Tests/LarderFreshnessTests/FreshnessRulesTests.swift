import Foundation
import LarderFreshness
import Testing

@Suite("Freshness rules (SPEC §4.1–4.3) and backoff")
struct FreshnessRulesTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func expiryCountsFromFetchedAt() {
        #expect(!FreshnessRules.isExpired(fetchedAt: t0, ttl: .seconds(60), now: t0 + 59.9))
        #expect(FreshnessRules.isExpired(fetchedAt: t0, ttl: .seconds(60), now: t0 + 60))
        #expect(FreshnessRules.isExpired(fetchedAt: nil, ttl: .seconds(60), now: t0))
        #expect(FreshnessRules.secondsLeft(fetchedAt: t0, ttl: .seconds(60), now: t0 + 10.5) == 49)
        #expect(FreshnessRules.secondsLeft(fetchedAt: t0, ttl: .seconds(60), now: t0 + 60.2) == -1)
    }

    @Test(arguments: [
        // (cached created, cached updated, upstream created, upstream updated, stale)
        (Optional(0.0), Optional(10.0), Optional(0.0), Optional(10.0), false),
        (0, 10, 0, 11, true),
        (0, 10, 1, 10, true),
        (0, 10, 0, 9, false),
        (nil, 10, 0, 10, true),
        (0, nil, 0, 10, true),
        (0, 10, nil, 10, true),
        (0, 10, 0, nil, true),
    ] as [(Double?, Double?, Double?, Double?, Bool)])
    func timestampRule(cc: Double?, cu: Double?, uc: Double?, uu: Double?, stale: Bool) {
        let at = { (offset: Double?) in offset.map { t0 + $0 } }
        #expect(FreshnessRules.isStale(
            cached: Timestamps(createdAt: at(cc), updatedAt: at(cu)),
            upstream: Timestamps(createdAt: at(uc), updatedAt: at(uu))) == stale)
    }

    @Test func regressionNeedsAnOlderKnownTimestamp() {
        let cached = Timestamps(createdAt: t0, updatedAt: t0 + 100)
        #expect(FreshnessRules.isRegression(cached: cached, upstream: Timestamps(createdAt: t0, updatedAt: t0 + 99)))
        #expect(FreshnessRules.isRegression(cached: cached, upstream: Timestamps(createdAt: t0 - 1, updatedAt: nil)))
        #expect(!FreshnessRules.isRegression(cached: cached, upstream: Timestamps(createdAt: nil, updatedAt: nil)))
        #expect(!FreshnessRules.isRegression(cached: cached, upstream: Timestamps(createdAt: t0, updatedAt: t0 + 100)))
    }

    @Test func backoffDoublesAndIsCappedAtTheTTL() {
        let backoff = Backoff(initial: .seconds(5), cap: .seconds(60))
        #expect(backoff.delay(afterFailures: 1) == .seconds(5))
        #expect(backoff.delay(afterFailures: 2) == .seconds(10))
        #expect(backoff.delay(afterFailures: 4) == .seconds(40))
        #expect(backoff.delay(afterFailures: 5) == .seconds(60))
        #expect(backoff.delay(afterFailures: 500) == .seconds(60))
    }
}
