import Foundation
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFormats
import LarderFreshness
import LarderHTTP
import LarderRates
import LarderRatesCache
import LarderServing
import LarderUpstream

/// `GET /ready` and `GET /status` (SPEC §3): readiness for orchestrators, and what each resource is doing.
struct OperationsRoutes: Sendable {
    let configuration: Configuration
    let rates: RatesCache?
    let documents: DocumentsCache?
    let startedAt: Date

    func register(on router: inout Router) {
        router.add(.get, "/ready", reads: [], .immediate { _ in ready() })
        router.add(.get, "/status", reads: [], .immediate { _ in status() })
    }

    /// 200 when every configured resource has data; else 503 with the reasons.
    func ready() -> Response {
        let reasons = Readiness(rates: rates, documents: documents).reasons
        let body: [String: Any] = reasons.isEmpty ? ["status": "ready"] : ["status": "not_ready", "reasons": reasons]
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Cache-Control": "no-store"]
        if !reasons.isEmpty { headers.add("Retry-After", "5") }
        return Response(status: reasons.isEmpty ? .ok : .serviceUnavailable, headers: headers, body: .bytes(SharedBytes(Self.json(body))))
    }

    func status() -> Response {
        var resources: [String: Any] = [:]
        if let rates, let upstream = configuration.rates {
            var entry = Self.describe(rates.refresher, url: upstream.url, format: upstream.format.rawValue)
            let summary = rates.summary
            entry["counts"] = ["days": summary.days, "latest_date": summary.latestDate as Any? ?? NSNull()]
            let schedule = rates.publicationSchedule
            entry["schedule"] = schedule.schedule
            entry["next_publication"] = schedule.nextPublication.map(Self.timestamp) ?? NSNull()
            entry["publications_missed"] = schedule.missed
            resources[CacheResource.rates.rawValue] = entry
        } else {
            resources[CacheResource.rates.rawValue] = ["configured": false]
        }
        if let documents, let upstream = configuration.documents {
            var entry = Self.describe(documents.refresher, url: upstream.url, format: upstream.format.rawValue)
            let summary = documents.summary
            let failed = documents.failedDownloads
            entry["counts"] = [
                "listed": summary.listed, "mirrored": summary.mirrored, "bytes": summary.bytes, "failed": failed.count,
            ]
            entry["failed_documents"] = failed.prefix(20).map { ["name": $0.name, "error": $0.message] }
            resources[CacheResource.documents.rawValue] = entry
        } else {
            resources[CacheResource.documents.rawValue] = ["configured": false]
        }
        let body: [String: Any] = [
            "version": LarderVersion.current,
            "started_at": Self.timestamp(startedAt),
            "resources": resources,
        ]
        return Response(
            headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .bytes(SharedBytes(Self.json(body))))
    }

    private static func describe<Outcome>(_ refresher: Refresher<Outcome>, url: String, format: String) -> [String: Any] {
        let status = refresher.status
        var entry: [String: Any] = [
            "configured": true,
            "upstream": UpstreamClient.redacted(url),
            "format": format,
            "ttl_seconds": Int(refresher.ttl.timeInterval),
            "fetched_at": status.fetchedAt.map(timestamp) ?? NSNull(),
            "last_success": status.lastSuccess.map(timestamp) ?? NSNull(),
            "last_attempt": status.lastAttempt.map(timestamp) ?? NSNull(),
            "next_refresh": (status.retryAt ?? status.nextRefresh).map(timestamp) ?? NSNull(),
            "refreshing": refresher.isRefreshing,
            "consecutive_failures": status.failures,
            "stale": refresher.freshness().isExpired,
        ]
        if let error = status.lastError {
            let at: Any = status.lastErrorAt.map { timestamp($0) as Any } ?? NSNull()
            entry["last_error"] = ["kind": error.kind.rawValue, "message": error.message, "at": at] as [String: Any]
        } else {
            entry["last_error"] = NSNull()
        }
        return entry
    }

    static func timestamp(_ date: Date) -> String {
        RFC3339.string(date, milliseconds: false)
    }

    private static func json(_ value: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
