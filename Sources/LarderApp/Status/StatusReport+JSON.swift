import Foundation
import LarderDocumentsCache
import LarderFormats
import LarderFreshness
import LarderRatesCache
import LarderServing

extension StatusReport {
    /// The body of `GET /status` (openapi.yaml's `Status`): sorted keys, `null` for what is not known.
    var jsonObject: [String: Any] {
        [
            "version": version,
            "started_at": Self.timestamp(startedAt),
            "clock_skew_seconds": clockSkewSeconds,
            "resources": [
                CacheResource.rates.rawValue: rates?.jsonObject ?? ["configured": false],
                CacheResource.documents.rawValue: documents?.jsonObject ?? ["configured": false],
            ],
        ]
    }

    /// RFC 3339 to the second, as every time in `/status` is written.
    static func timestamp(_ date: Date) -> String {
        RFC3339.string(date, milliseconds: false)
    }
}

extension ResourceReport {
    var jsonObject: [String: Any] {
        let time = { (date: Date?) -> Any in date.map(StatusReport.timestamp) ?? NSNull() }
        var entry: [String: Any] = [
            "configured": true,
            "upstream": upstream,
            "format": format,
            "ttl_seconds": ttlSeconds,
            "fetched_at": time(fetchedAt),
            "last_success": time(lastSuccess),
            "last_attempt": time(lastAttempt),
            "next_refresh": time(nextRefresh),
            "refreshing": refreshing,
            "consecutive_failures": consecutiveFailures,
            "stale": stale,
            "last_error": lastError.map { ["kind": $0.kind, "message": $0.message, "at": time($0.at)] as [String: Any] }
                ?? NSNull(),
        ]
        switch counts {
        case .rates(let days, let latestDate):
            entry["counts"] = ["days": days, "latest_date": latestDate as Any? ?? NSNull()]
            entry["cross_check"] = crossCheck?.jsonObject ?? NSNull()
        case .documents(let listed, let mirrored, let bytes, let failed):
            entry["counts"] = ["listed": listed, "mirrored": mirrored, "bytes": bytes, "failed": failed]
            entry["failed_documents"] = failedDocuments.map { ["name": $0.name, "error": $0.message] }
        }
        if let sync {
            entry["sync"] = [
                "running": sync.running, "done": sync.done, "total": sync.total, "failed": sync.failed, "bytes": sync.bytes,
            ] as [String: Any]
        }
        if let mirror {
            entry["mirror"] = [
                "running": mirror.running, "providers_complete": mirror.providersComplete, "providers_total": mirror.providersTotal,
                "rows": mirror.rows, "requests_done": mirror.windowsDone, "requests_total": mirror.windowsTotal,
                "seconds_left": mirror.secondsLeft as Any? ?? NSNull(),
                "skipped": mirror.skipped.map { ["key": $0.key, "reason": $0.reason] },
                "bounded": mirror.bounded.map { ["key": $0.key, "reason": $0.reason] },
            ] as [String: Any]
        }
        entry["upstreams"] = upstreams.map(\.jsonObject)
        if let publication {
            entry["schedule"] = publication.schedule
            entry["next_publication"] = time(publication.next)
            entry["publications_missed"] = publication.missed
        }
        return entry
    }
}

extension UpstreamReport {
    /// One entry of a resource's `upstreams` in `/status` (openapi.yaml's `Upstream`).
    var jsonObject: [String: Any] {
        let time = { (date: Date?) -> Any in date.map(StatusReport.timestamp) ?? NSNull() }
        return [
            "label": label,
            "format": format,
            "state": report.state.rawValue,
            "consecutive_failures": report.consecutiveFailures,
            "last_success": time(report.lastSuccess),
            "last_attempt": time(report.lastAttempt),
            "last_error": report.lastError.map {
                ["kind": $0.kind.rawValue, "message": $0.message, "at": time(report.lastErrorAt)] as [String: Any]
            } ?? NSNull(),
            "open_until": time(report.state == .closed ? nil : report.openUntil),
            "served": report.served as Any? ?? NSNull(),
            "behind": report.behind,
            "newest_day": report.newestDay as Any? ?? NSNull(),
        ]
    }
}
