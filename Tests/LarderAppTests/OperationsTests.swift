import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderTesting
import Testing

/// The sample upstream's one-day ECB file (2026-11-20), which the operations tests point rates at.
let ratesPath = "/rates/eurofxref-daily.xml"

/// `withLarder` with rates read from `ratesPath` on a 100 s TTL (no ECB calendar), the clock at a
/// fixed instant; `configure` may change more (add faults before the start-up sync, say).
func withRates<T: Sendable>(
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withLarder(clock: ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))) { configuration, upstream in
        configuration.rates = UpstreamResource(url: upstream.url(ratesPath), format: .auto)
        configuration.ratesTTL = .seconds(100)
        configuration.ratesSchedule = .ttl
        try await configure(&configuration, upstream)
    } _: { larder, upstream in
        try await body(larder, upstream)
    }
}

@Suite("/ready and /status", .serialized)
struct OperationsTests {
    @Test func readinessWaitsForDataAndSaysWhy() async throws {
        try await withRates { configuration, upstream in
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":503}"#)
        } _: { larder, upstream in
            _ = await larder.application?.rates?.refresher.refresh()
            let notReady = try await larder.get("/ready")
            try await upstream.clearFaults()
            _ = await larder.application?.rates?.refresher.refresh()
            let ready = try await larder.get("/ready")
            #expect(notReady.status == 503)
            #expect(notReady.header("Retry-After") != nil)
            let reasons = notReady.json?["reasons"] as? [String] ?? []
            #expect(reasons.count == 1 && reasons[0].hasPrefix("rates: nothing cached yet") && reasons[0].contains("503"))
            #expect(ready.status == 200)
            #expect(ready.json?["status"] as? String == "ready")
            #expect(ready.header("Cache-Control") == "no-store")
        }
    }

    @Test func statusShowsEachResourceWithoutCredentials() async throws {
        try await withRates { configuration, upstream in
            configuration.rates?.url = upstream.url(ratesPath)
                .replacingOccurrences(of: "http://", with: "http://reader:s3cret@")
        } _: { larder, upstream in
            _ = try await larder.get("/rates")
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":500}"#)
            larder.clock.advance(by: 101)
            _ = await larder.application?.rates?.refresher.refresh()
            let status = try await larder.get("/status")
            #expect(status.status == 200)
            #expect(!status.text.contains("s3cret"))
            let resources = status.json?["resources"] as? [String: Any]
            let rates = resources?["rates"] as? [String: Any]
            #expect((rates?["upstream"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
            #expect(rates?["stale"] as? Bool == true)
            #expect(rates?["consecutive_failures"] as? Int == 1)
            #expect((rates?["last_error"] as? [String: Any])?["kind"] as? String == "upstream-error")
            #expect(rates?["last_success"] is String)
            #expect(rates?["next_refresh"] is String)
            #expect((rates?["counts"] as? [String: Any])?["latest_date"] as? String == "2026-11-20")
            #expect((resources?["documents"] as? [String: Any])?["configured"] as? Bool == false)
        }
    }
}

/// The value of one sample line of a Prometheus exposition, e.g. `larder_cache_hits_total{resource="rates"}`.
func sample(_ exposition: String, _ series: String) -> Double? {
    for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1))
    }
    return nil
}

@Suite("/metrics", .serialized)
struct MetricsTests {
    /// The sample upstream's daily file moved back a day: older than the cached copy, so refused as a regression.
    static func dayBefore() throws -> String {
        let file = ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-daily.xml")
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.replacingOccurrences(of: "time='2026-11-20'", with: "time='2026-11-19'")
    }

    @Test func staleHitsCountApartAndEveryUpstreamOutcomeIsCounted() async throws {
        try await withRates { larder, upstream in
            let synced = try await eventually {
                try await upstream.requests(ratesPath).total >= 1 && larder.application?.rates?.refresher.isRefreshing == false
            }
            #expect(synced, "the start-up sync landed: the next requests are hits")
            for _ in 0..<3 { _ = try await larder.get("/rates") }
            _ = try await larder.request("POST", "/rates/refresh")  // 304
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":500,"times":1}"#)
            _ = try await larder.request("POST", "/rates/refresh")  // error
            try await upstream.fault(#"{"path":"\#(ratesPath)","body":"<html>oops</html>","times":1}"#)
            _ = try await larder.request("POST", "/rates/refresh")  // refused
            try await upstream.put(ratesPath, try Self.dayBefore())
            _ = try await larder.request("POST", "/rates/refresh")  // 200, a regression
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":503}"#)
            larder.clock.advance(by: 101)
            _ = await larder.application?.rates?.refresher.refresh()
            for _ in 0..<2 { _ = try await larder.get("/rates") }
            _ = try await larder.get("/nowhere")
            let metrics = try await larder.get("/metrics")
            let text = metrics.text
            #expect(metrics.status == 200)
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(sample(text, #"larder_cache_hits_total{resource="rates"}"#) == 3)
            #expect(sample(text, #"larder_cache_stale_hits_total{resource="rates"}"#) == 2)
            #expect(sample(text, #"larder_cache_misses_total{resource="rates"}"#) == nil)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="200"}"#) == 2)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="304"}"#) == 1)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="error"}"#) == 2)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="refused"}"#) == 1)
            #expect(sample(text, #"larder_upstream_regressions_refused_total{resource="rates"}"#) == 1)
            #expect(sample(text, #"larder_http_requests_total{route="/rates",status="200"}"#) == 5)
            #expect(sample(text, #"larder_http_requests_total{route="unmatched",status="404"}"#) == 1)
            #expect(sample(text, #"larder_http_request_duration_seconds_count{route="/rates"}"#) == 5)
            #expect(sample(text, #"larder_resource_stale{resource="rates"}"#) == 1)
            #expect((sample(text, #"larder_seconds_since_last_update{resource="rates"}"#) ?? 0) >= 101)
            #expect(sample(text, #"larder_refresh_duration_seconds_count{resource="rates"}"#) == 6)
        }
    }
}
