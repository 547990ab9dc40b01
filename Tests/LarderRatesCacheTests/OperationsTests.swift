import Foundation
import LarderConfig
import LarderTestSupport
import Testing

@Suite("/ready and /status", .serialized)
struct OperationsTests {
    @Test func readinessWaitsForDataAndSaysWhy() async throws {
        let harness = try RatesHarness()
        try harness.fault(#"{"path":"\#(RatesHarness.feedPath)","status":503}"#)
        try harness.start()
        _ = await harness.app?.rates?.refresher.refresh()
        let notReady = try await harness.get("/ready")
        try harness.clearFaults()
        _ = await harness.app?.rates?.refresher.refresh()
        let ready = try await harness.get("/ready")
        await harness.finish()
        #expect(notReady.status == 503)
        #expect(notReady.header("Retry-After") != nil)
        let reasons = notReady.json?["reasons"] as? [String] ?? []
        #expect(reasons.count == 1 && reasons[0].hasPrefix("rates: nothing cached yet") && reasons[0].contains("503"))
        #expect(ready.status == 200)
        #expect(ready.json?["status"] as? String == "ready")
        #expect(ready.header("Cache-Control") == "no-store")
    }

    @Test func statusShowsEachResourceWithoutCredentials() async throws {
        let harness = try RatesHarness()
        harness.configuration.rates?.url = harness.upstreamURL(RatesHarness.feedPath)
            .replacingOccurrences(of: "http://", with: "http://reader:s3cret@")
        try harness.start()
        _ = try await harness.get("/rates")
        try harness.fault(#"{"path":"\#(RatesHarness.feedPath)","status":500}"#)
        harness.clock.advance(by: 101)
        _ = await harness.app?.rates?.refresher.refresh()
        let status = try await harness.get("/status")
        await harness.finish()
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
