import Foundation
import LarderDocumentsCache
import LarderFreshness
import LarderHTTP
import LarderMetrics
import LarderRatesCache
import LarderServing

/// `GET /metrics`: the Prometheus text format, with the gauges that describe state read at scrape time.
struct MetricsRoutes: Sendable {
    let metrics: LarderMetrics
    let rates: RatesCache?
    let documents: DocumentsCache?

    func register(on router: inout Router) {
        router.add(.get, "/metrics", reads: [], .immediate { _ in
            updateGauges()
            return Response(
                headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"],
                body: .bytes(SharedBytes(metrics.exposition())))
        })
    }

    private func updateGauges() {
        if let rates {
            record(.rates, rates.refresher)
            metrics.gauge("larder_rates_days", [], Double(rates.summary.days))
        }
        if let documents {
            record(.documents, documents.refresher)
            let summary = documents.summary
            metrics.gauge("larder_documents", [], Double(summary.mirrored))
            metrics.gauge("larder_documents_listed", [], Double(summary.listed))
            metrics.gauge("larder_documents_bytes", [], Double(summary.bytes))
        }
    }

    /// Seconds since the upstream last confirmed the data (-1 before the first success), and whether it is stale.
    private func record<Outcome>(_ resource: CacheResource, _ refresher: Refresher<Outcome>) {
        let status = refresher.status
        let now = refresher.clock.now
        let age = status.fetchedAt.map { now.timeIntervalSince($0) } ?? -1
        metrics.gauge("larder_seconds_since_last_update", [("resource", resource.rawValue)], age)
        let stale = refresher.freshness().isExpired
        metrics.gauge("larder_resource_stale", [("resource", resource.rawValue)], stale ? 1 : 0)
        metrics.gauge("larder_refresh_failures", [("resource", resource.rawValue)], Double(status.failures))
    }
}
