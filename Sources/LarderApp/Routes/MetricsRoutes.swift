import Foundation
import LarderDocumentsCache
import LarderFreshness
import LarderHTTP
import LarderMetrics
import LarderRatesCache
import LarderServing

/// `GET /metrics`: the Prometheus text format, with the gauges that describe state read at scrape time,
/// so every series the alerting rules read is there from the first scrape.
struct MetricsRoutes: Sendable {
    let metrics: LarderMetrics
    let rates: RatesCache?
    let documents: DocumentsCache?
    /// nil in-process without an upstream client (the fuzz pipelines): the gauge reads 0.
    let clockSkew: ClockSkew?

    func register(on router: inout Router) {
        // Suspending: the mirror's counts may be read from the store, which no loop thread waits for.
        router.add(.get, "/metrics", reads: [], .suspending { _ in
            await updateGauges()
            return Response(
                headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"],
                body: .bytes(SharedBytes(metrics.exposition())))
        })
    }

    private func updateGauges() async {
        metrics.set(.ready, Readiness(rates: rates, documents: documents).isReady ? 1 : 0)
        metrics.set(.clockSkew, Double(clockSkew?.seconds ?? 0))
        if let rates {
            record(.rates, rates.refresher)
            metrics.set(.rateSets, Double(rates.summary.days))
            record(.rates, rates.upstreamReports)
        }
        if let documents {
            record(.documents, documents.refresher)
            record(.documents, documents.upstreamReports)
            let summary = await documents.summary
            metrics.set(.documentsListed, Double(summary.listed))
            metrics.set(.documentsMirrored, Double(summary.mirrored))
            metrics.set(.documentsBytes, Double(summary.bytes))
            metrics.set(.documentsFailed, Double(documents.failedDownloadCount))
        }
    }

    /// `larder_upstream_up` per upstream: 0 from its first failure until it succeeds again (its breaker
    /// open, or half-open and not yet through), else 1; for the rates also `larder_upstream_behind`
    /// (SPEC §4.12: 1 while its newest day lacks a due publication or another upstream's newest day).
    private func record(_ resource: CacheResource, _ upstreams: [UpstreamReport]) {
        for upstream in upstreams {
            let labels = [("resource", resource.rawValue), ("upstream", upstream.label)]
            metrics.set(.upstreamUp, upstream.report.consecutiveFailures == 0 ? 1 : 0, labels: labels)
            if resource == .rates { metrics.set(.upstreamBehind, upstream.report.behind ? 1 : 0, labels: labels) }
        }
    }

    /// Whether the copy is stale, the failures in a row, and when the upstream last confirmed it: the
    /// refresher's `fetchedAt`, which starts from the store's `fetched_at`, so a restart while the upstream
    /// is down keeps it (and LarderResourceStale can still fire). Absent only while nothing was ever
    /// fetched, when `larder_ready` is 0.
    private func record<Outcome>(_ resource: CacheResource, _ refresher: Refresher<Outcome>) {
        let labels = [("resource", resource.rawValue)]
        let status = refresher.status
        metrics.set(.resourceStale, refresher.freshness().isExpired ? 1 : 0, labels: labels)
        metrics.set(.refreshConsecutiveFailures, Double(status.failures), labels: labels)
        if let fetchedAt = status.fetchedAt {
            metrics.set(.lastSuccessTimestamp, fetchedAt.timeIntervalSince1970, labels: labels)
        }
    }
}
