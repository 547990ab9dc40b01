import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderRatesCache
import LarderStore
import LarderTesting
import Synchronization
import Testing

@Suite("Rates: TTL, timestamps, failures, restarts (SPEC §4)", .serialized)
struct RatesFreshnessTests {
    static let newer = ECB.document([("2026-11-23", [("USD", "1.0900"), ("JPY", "163.00")])])
    static let older = ECB.document([("2026-11-19", [("USD", "1.0500"), ("JPY", "150.00")])])

    @Test func afterExpiryTheCachedCopyIsServedAtOnceAndABackgroundRefreshFollows() async throws {
        try await withRatesFeed { larder, upstream in
            _ = try await larder.get("/rates")
            #expect(try await larder.waitForFeedRequests(1, on: upstream))
            try await upstream.put(ratesFeedPath, Self.newer)
            larder.clock.advance(by: 101)
            let stale = try await larder.get("/rates")
            #expect(stale.status == 200)
            #expect(stale.text.contains(#""date":"2026-11-20""#), "answered from the cache, not after the upstream")
            #expect(stale.header("Cache-Control") == "public, max-age=0, stale-while-revalidate=100, stale-if-error=2400")
            #expect(stale.header("Cache-Status")?.hasPrefix("Larder; hit; ttl=-") == true)
            #expect(try await larder.waitForFeedRequests(2, on: upstream))
            let fresh = try await larder.get("/rates")
            #expect(fresh.text.contains(#""date":"2026-11-23""#))
            #expect(fresh.header("Cache-Status") == "Larder; hit; ttl=100")
            #expect(fresh.header("ETag") != stale.header("ETag"))
        }
    }

    @Test func anOlderUpstreamDayNeverReplacesANewerOne() async throws {
        try await withRatesFeed { larder, upstream in
            let before = try await larder.get("/rates")
            try await upstream.put(ratesFeedPath, Self.older)
            let refresh = try await larder.request("POST", "/rates/refresh")
            let after = try await larder.get("/rates")
            #expect(refresh.status == 200)
            #expect(refresh.json?["outcome"] as? String == "regression_refused")
            #expect(refresh.json?["changed"] as? Bool == false)
            #expect(after.text == before.text)
            #expect(after.header("Age") == "0", "the check still counts as contact with the upstream")
        }
    }

    @Test func equalDataIsNotRewritten() async throws {
        try await withRatesFeed { larder, upstream in
            let before = try await larder.get("/rates")
            larder.clock.advance(by: 30)
            // The same bytes under new validators: a 200 that changes nothing.
            try await upstream.put(ratesFeedPath, ECB.document([("2026-11-20", ECB.rates)]) + "\n")
            let refresh = try await larder.request("POST", "/rates/refresh")
            let after = try await larder.get("/rates")
            #expect(refresh.json?["outcome"] as? String == "unchanged")
            #expect(after.header("Last-Modified") == before.header("Last-Modified"))
            #expect(after.header("ETag") == before.header("ETag"))
            #expect(after.header("Age") == "0")
        }
    }

    @Test func a304OnlyMovesFetchedAt() async throws {
        try await withRatesFeed { larder, upstream in
            let before = try await larder.get("/rates")
            larder.clock.advance(by: 60)
            let aged = try await larder.get("/rates")
            let refresh = try await larder.request("POST", "/rates/refresh")
            let after = try await larder.get("/rates")
            let counts = try await upstream.requests(ratesFeedPath)
            #expect(aged.header("Age") == "60")
            #expect(aged.header("Cache-Control") == "public, max-age=40, stale-while-revalidate=100, stale-if-error=2400")
            #expect(refresh.json?["outcome"] as? String == "not_modified")
            #expect(counts.statuses["304"] == 1)
            #expect(after.header("Age") == "0")
            #expect(after.header("Cache-Control") == "public, max-age=100, stale-while-revalidate=100, stale-if-error=2400")
            #expect(after.header("Last-Modified") == before.header("Last-Modified"))
            #expect(after.text == before.text)
        }
    }

    @Test func aFailingUpstreamLeavesTheCacheServedAndMarkedStale() async throws {
        try await withRatesFeed { larder, upstream in
            let before = try await larder.get("/rates")
            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","status":503}"#)
            larder.clock.advance(by: 101)
            let refresh = try await larder.request("POST", "/rates/refresh")
            let during = try await larder.get("/rates")
            #expect(refresh.status == 502)
            #expect(refresh.errorCode == "upstream_failed")
            #expect((refresh.json?["error"] as? [String: Any])?["message"] as? String ?? "" != "")
            #expect(during.status == 200)
            #expect(during.text == before.text)
            #expect(during.header("Cache-Status") == "Larder; hit; ttl=-1; detail=upstream-error")
        }
    }

    @Test func withTheUpstreamGoneARestartServesTheCacheAtOnce() async throws {
        try await withRatesFeed { larder, upstream in
            let before = try await larder.get("/rates")
            await larder.stop()
            await upstream.stop()
            try await larder.start()
            let started = ContinuousClock.now
            let after = try await larder.get("/rates")
            let elapsed = ContinuousClock.now - started
            larder.clock.advance(by: 101)
            _ = await larder.application?.rates?.refresher.refresh()
            let stale = try await larder.get("/rates")
            #expect(after.status == 200)
            #expect(after.text == before.text)
            #expect(elapsed < .seconds(5), "served from disk, not after the 10 s cold wait")
            #expect(stale.text == before.text)
            #expect(stale.header("Cache-Status")?.hasSuffix("detail=upstream-unreachable") == true)
        }
    }

    static let refusedBodies: [(String, String)] = [
        ("comma decimal", ECB.document([("2026-11-21", [("USD", "1,0900")])])),
        ("duplicate currency", ECB.document([("2026-11-21", [("USD", "1.09"), ("USD", "1.10")])])),
        ("truncated XML", String(ECB.document([("2026-11-21", ECB.rates)]).dropLast(40))),
        ("JSON bare string", #""EUR 1.09""#),
        ("HTML error page", "<!DOCTYPE html><html><body><h1>Service temporarily unavailable</h1></body></html>"),
        ("empty body", ""),
        ("pipe comma decimal", "USD|US dollar|1,0862\nJPY|Japanese yen|162.41\n"),
        ("pipe duplicate currency", "USD|US dollar|1.0862\nUSD|US dollar|1.0900\n"),
        ("JSON duplicate currency", #"{"base":"EUR","date":"2026-11-21","rates":{"USD":1.09,"USD":1.10}}"#),
        ("JSON comma decimal", #"{"base":"EUR","date":"2026-11-21","rates":{"USD":"1,09"}}"#),
        ("JSON truncated", #"{"base":"EUR","date":"2026-11-21","rates":{"USD":1.09,"JP"#),
    ]

    @Test(arguments: refusedBodies)
    func aRefusedPayloadLeavesTheCacheAsItWas(name: String, body: String) async throws {
        try await withRatesFeed { larder, upstream in
            let before = try await larder.get("/rates")
            try await upstream.put(ratesFeedPath, body)
            let refresh = try await larder.request("POST", "/rates/refresh")
            let after = try await larder.get("/rates")
            let day = try await larder.get("/rates/2026-11-21")
            #expect(refresh.status == 502, "\(name)")
            #expect(refresh.errorCode == "upstream_failed")
            #expect(after.text == before.text)
            #expect(after.header("ETag") == before.header("ETag"))
            #expect(day.text == before.text)
        }
    }

    @Test func twoHundredColdRequestsShareOneSlowUpstreamFetch() async throws {
        try await withRatesFeed { configuration, upstream in
            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","delay_ms":1000,"times":1}"#)
        } _: { larder, upstream in
            let port = larder.port
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 {
                    group.addTask { try await onThread { try TestConnection.fetch(port: port, "/rates").status } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let counts = try await upstream.requests(ratesFeedPath)
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(counts.total == 1)
        }
    }

    @Test func aColdCacheWithTheUpstreamDownAnswers503WithRetryAfter() async throws {
        try await withRatesFeed { configuration, upstream in
            try await upstream.fault(#"{"path":"\#(ratesFeedPath)","status":500}"#)
        } _: { larder, upstream in
            let first = try await larder.get("/rates")
            let second = try await larder.get("/rates")
            let counts = try await upstream.requests(ratesFeedPath)
            #expect(first.status == 503 && first.errorCode == "unavailable")
            #expect(Int(first.header("Retry-After") ?? "") ?? 0 >= 1)
            #expect(second.status == 503)
            #expect(counts.total <= 2, "cold requests wait for the backoff instead of hammering the upstream")
        }
    }

    /// SPEC §4.9: a changed URL never empties the cache; the new upstream's first valid copy replaces it whole.
    @Test func aChangedURLKeepsTheOldCopyUntilTheNewUpstreamDelivers() async throws {
        try await withRatesFeed { larder, upstream in
            let original = try await larder.get("/rates")
            await larder.stop()
            // The new upstream is down at first.
            let otherPath = "/rates/other.xml"
            try await upstream.put(otherPath, Self.older)
            try await upstream.fault(#"{"path":"\#(otherPath)","status":500}"#)
            larder.configuration.withLock { $0.rates?.url = upstream.url(otherPath) }
            try await larder.start()
            // The start-up attempt at the new upstream has been made and has failed.
            #expect(try await eventually {
                try await upstream.requests(otherPath).total > 0 && larder.application?.rates?.refresher.isRefreshing == false
            })
            let kept = try await larder.get("/rates")
            let status = try await larder.get("/status")
            try await upstream.clearFaults()
            let refresh = try await larder.request("POST", "/rates/refresh")
            let replaced = try await larder.get("/rates")
            let history = try await larder.get("/rates/2026-01-01..")
            await larder.stop()
            try await larder.start()
            let restarted = try await larder.get("/rates")
            await larder.stop()
            #expect(kept.text == original.text, "the old copy is served while the new upstream fails")
            #expect(kept.header("Cache-Status")?.hasSuffix("; detail=upstream-changed") == true)
            #expect(kept.header("Cache-Control") == "public, max-age=0, stale-while-revalidate=100, stale-if-error=2400")
            let rates = (status.json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
            #expect(rates?["stale"] as? Bool == true)
            #expect(refresh.json?["outcome"] as? String == "updated")
            // Older than the old copy, and still taken: never-regress compares copies of one upstream.
            #expect(replaced.text.contains(#""date":"2026-11-19""#))
            #expect(history.json?["start_date"] as? String == "2026-11-19", "the old upstream's days are gone")
            #expect(history.json?["end_date"] as? String == "2026-11-19")
            #expect(restarted.header("Cache-Status") == "Larder; hit; ttl=100", "the new URL is the recorded one now")
            // A format version bump clears the cache: old data cannot be read.
            do {
                let store = try Store(directory: larder.cacheDirectory, formatVersion: Store.formatVersion + 1, logger: quietLogger)
                #expect(try store.rateSetCount() == 0)
            }
            do {
                let store = try Store(directory: larder.cacheDirectory, logger: quietLogger)
                #expect(try store.rateSetCount() == 0)
            }
        }
    }
}
