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

/// `withLarder` with rates read from `path` (`ratesPath` unless told) on a 100 s TTL (no ECB calendar),
/// the clock at a fixed instant; `configure` may change more (add faults before the start-up sync, say).
func withRates<T: Sendable>(
    path: String = ratesPath,
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withLarder(clock: ManualClock(now: Date(timeIntervalSince1970: 1_800_000_000))) { configuration, upstream in
        configuration.rates = UpstreamResource(url: upstream.url(path), format: .auto)
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
