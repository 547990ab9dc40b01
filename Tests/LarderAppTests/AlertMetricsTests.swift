import Foundation
import LarderApp
import LarderConfig
import LarderRates
import LarderDocumentsCache
import LarderFreshness
import LarderRatesCache
import LarderTesting
import Testing

/// The series Docker/prometheus/larder-alerts.yaml reads, in the states its alerts are about: there from
/// the first scrape, and with the values the rules expect.
@Suite("/metrics for the alerting rules", .serialized)
struct AlertMetricsTests {
    static let rates = #"{resource="rates"}"#

    @Test func notReadyThenReadyThenFailing() async throws {
        try await withRates { configuration, upstream in
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":503}"#)
        } _: { larder, upstream in
            _ = await larder.application?.rates?.refresher.refresh()
            let notReady = try await larder.get("/metrics").text
            try await upstream.clearFaults()
            _ = await larder.application?.rates?.refresher.refresh()
            let ready = try await larder.get("/metrics").text
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":500}"#)
            larder.clock.advance(by: 101)
            for _ in 0..<3 { _ = await larder.application?.rates?.refresher.refresh() }
            let failing = try await larder.get("/metrics").text

            // Nothing cached: GET /ready's 503, and no last success to show.
            #expect(sample(notReady, "larder_ready") == 0)
            #expect(sample(notReady, "larder_resource_stale" + Self.rates) == 1)
            #expect((sample(notReady, "larder_refresh_consecutive_failures" + Self.rates) ?? 0) >= 1)
            #expect(sample(notReady, "larder_last_success_timestamp_seconds" + Self.rates) == nil)
            // Exported at 0 from the start (increase() cannot see a counter's first step otherwise).
            #expect(sample(notReady, "larder_publications_missed_total" + Self.rates) == 0)
            #expect(sample(notReady, "larder_rates_cross_check_disagreements_total") == 0)
            #expect((sample(notReady, #"larder_upstream_fetches_total{resource="rates",outcome="error"}"#) ?? 0) >= 1)

            #expect(sample(ready, "larder_ready") == 1)
            #expect(sample(ready, "larder_resource_stale" + Self.rates) == 0)
            #expect(sample(ready, "larder_refresh_consecutive_failures" + Self.rates) == 0)
            #expect(sample(ready, "larder_last_success_timestamp_seconds" + Self.rates) == 1_800_000_000)

            // Past the TTL with the upstream failing: still ready (it serves its copy), stale, counting.
            #expect(sample(failing, "larder_ready") == 1)
            #expect(sample(failing, "larder_resource_stale" + Self.rates) == 1)
            #expect((sample(failing, "larder_refresh_consecutive_failures" + Self.rates) ?? 0) >= 3)
            #expect(sample(failing, "larder_last_success_timestamp_seconds" + Self.rates) == 1_800_000_000)
        }
    }

    /// WIP-NOTES of the rules: after a restart with the upstream down, the last success must still be
    /// known, or LarderResourceStale could never fire. It comes from the store's fetched_at.
    @Test func lastSuccessSurvivesARestartWithTheUpstreamDown() async throws {
        try await withRates { larder, upstream in
            let synced = try await eventually {
                larder.application?.rates?.hasData == true && larder.application?.rates?.refresher.isRefreshing == false
            }
            #expect(synced)
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":503}"#)
            larder.clock.advance(by: 500)
            try await larder.restart()
            let attempted = try await eventually {
                guard let refresher = larder.application?.rates?.refresher else { return false }
                return refresher.status.lastAttempt != nil && !refresher.isRefreshing
            }
            #expect(attempted, "the restarted Larder's first refresh ran (and failed)")
            let text = try await larder.get("/metrics").text
            #expect(sample(text, "larder_last_success_timestamp_seconds" + Self.rates) == 1_800_000_000)
            #expect(sample(text, "larder_resource_stale" + Self.rates) == 1)
            #expect(sample(text, "larder_ready") == 1)
            #expect((sample(text, "larder_refresh_consecutive_failures" + Self.rates) ?? 0) >= 1)
        }
    }

    /// LarderRatesUpstreamsDisagree watches the currencies a cross-check found different.
    @Test func upstreamsThatDisagreeMoveTheCounterTheRuleWatches() async throws {
        func feed(usd: String, jpy: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <Cube><Cube time="2026-11-20"><Cube currency="USD" rate="\(usd)"/><Cube currency="JPY" rate="\(jpy)"/>\
            <Cube currency="GBP" rate="0.8437"/></Cube></Cube></gesmes:Envelope>
            """
        }
        try await withRates { configuration, upstream in
            try await upstream.put("/rates/primary.xml", feed(usd: "1.0862", jpy: "162.41"))
            try await upstream.put("/rates/secondary.xml", feed(usd: "1.0900", jpy: "163.00"))
            configuration.rates = UpstreamResource(upstreams: [
                Upstream(url: upstream.url("/rates/primary.xml"), format: .ecb),
                Upstream(url: upstream.url("/rates/secondary.xml"), format: .ecb),
            ])
        } _: { larder, _ in
            #expect(try await eventually {
                larder.application?.rates?.crossCheckReport != nil && larder.application?.rates?.isCrossChecking == false
            })
            let text = try await larder.get("/metrics").text
            #expect(sample(text, "larder_rates_cross_check_disagreements_total") == 2)
            #expect(sample(text, #"larder_rates_cross_checks_total{outcome="disagreed"}"#) == 1)
            #expect(sample(text, #"larder_rates_cross_checks_total{outcome="unavailable"}"#) == 0)
        }
    }

    @Test func documentsThatFailToMirrorAreCountedUntilTheyDo() async throws {
        try await withRatesAndDocuments { configuration, upstream in
            try await upstream.fault(#"{"path":"/documents/faq.md","status":500}"#)
        } _: { larder, upstream in
            let failing = try await larder.get("/metrics").text
            try await upstream.clearFaults()
            _ = await larder.application?.documents?.refresher.refresh()
            let mirrored = try await larder.get("/metrics").text

            #expect(sample(failing, "larder_documents_failed") == 1)
            #expect(sample(failing, "larder_documents_listed") == 5)
            #expect(sample(failing, "larder_documents_mirrored") == 4)
            #expect(sample(failing, "larder_ready") == 1, "an accepted index is enough to be ready")
            #expect(sample(mirrored, "larder_documents_failed") == 0)
            #expect(sample(mirrored, "larder_documents_mirrored") == 5)
        }
    }
}
