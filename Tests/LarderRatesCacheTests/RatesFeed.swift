import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderTesting

/// Where the rates suites publish their feed on the sample upstream.
let ratesFeedPath = "/rates/feed.xml"

/// `withLarder` with `feed` published at `ratesFeedPath` and Larder's rates pointed at it, on a TTL
/// of `ttl` (the ECB calendar has its own suite), the clock starting at `now`; `configure` may change more.
func withRatesFeed<T: Sendable>(
    _ feed: String = ECB.document([("2026-11-20", ECB.rates)]), ttl: Duration = .seconds(100),
    now: Date = Date(timeIntervalSince1970: 1_800_000_000),
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withLarder(clock: ManualClock(now: now)) { configuration, upstream in
        try await upstream.put(ratesFeedPath, feed)
        configuration.rates = UpstreamResource(url: upstream.url(ratesFeedPath), format: .auto)
        configuration.ratesTTL = ttl
        configuration.ratesSchedule = .ttl
        try await configure(&configuration, upstream)
    } _: { larder, upstream in
        try await body(larder, upstream)
    }
}

extension TestLarder {
    /// Waits (bounded) until the upstream saw `count` requests for the feed and no refresh runs.
    func waitForFeedRequests(_ count: Int, on upstream: SampleUpstreamControl) async throws -> Bool {
        try await eventually {
            try await upstream.requests(ratesFeedPath).total >= count && application?.rates?.refresher.isRefreshing == false
        }
    }
}
