import Foundation
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderServing
import LarderUpstream

/// What Larder says about its resources, read once from the caches: `/status` renders it as JSON,
/// the status page as HTML, so the two never disagree.
struct StatusReport: Sendable, Equatable {
    let version: String
    let startedAt: Date
    /// The upstreams' `Date` minus the machine's clock when more than a day apart, else 0 (SPEC §4.11).
    var clockSkewSeconds = 0
    /// nil when `--rates-url` is not set.
    let rates: ResourceReport?
    /// nil when `--documents-url` is not set.
    let documents: ResourceReport?
}

/// One configured resource: its upstream, freshness record, last error, schedule and counts.
struct ResourceReport: Sendable, Equatable {
    /// The last refresh's error, in the words `/status` and the logs use.
    struct LastError: Sendable, Equatable {
        let kind: String
        let message: String
        let at: Date?
    }

    /// What the resource holds.
    enum Counts: Sendable, Equatable {
        case rates(days: Int, latestDate: String?)
        case documents(listed: Int, mirrored: Int, bytes: Int, failed: Int)
    }

    /// The rates' publication calendar (SPEC §4.10): `ttl` or `ecb`, the next expected publication, misses.
    struct Publication: Sendable, Equatable {
        let schedule: String
        let next: Date?
        let missed: Int

        /// The rates cache's calendar as `/status` and the page show it.
        init(of rates: RatesCache) {
            let calendar = rates.publicationSchedule
            schedule = calendar.schedule
            next = calendar.nextPublication
            missed = calendar.missed
        }
    }

    /// A document whose latest download failed.
    struct FailedDocument: Sendable, Equatable {
        let name: String
        let message: String
    }

    /// `/status` lists this many failed documents at most (the page lists every document's state).
    static let failedDocumentsShown = 20

    /// Without credentials.
    let upstream: String
    let format: String
    let ttlSeconds: Int
    let fetchedAt: Date?
    let lastSuccess: Date?
    let lastAttempt: Date?
    /// The retry time while backing off, else the scheduled refresh.
    let nextRefresh: Date?
    let refreshing: Bool
    let consecutiveFailures: Int
    let stale: Bool
    let lastError: LastError?
    let counts: Counts
    /// Rates only.
    let publication: Publication?
    /// Documents only: the first `failedDocumentsShown`, by name.
    let failedDocuments: [FailedDocument]
    /// Documents only: how far the running sync's downloads are (or the last sync's, once it ended).
    var sync: SyncProgress.Snapshot? = nil
    /// Rates only: how far a Frankfurter v2 mirror's sync is, live while it runs (nil before one began).
    var mirror: FrankfurterMirrorProgress.Snapshot? = nil
    /// Each upstream in priority order, with its health (SPEC §4.12).
    var upstreams: [UpstreamReport] = []
    /// Rates only: the last cross-check of a new publication against the other upstreams (SPEC §4.12).
    var crossCheck: CrossCheckReport? = nil
}

/// Reads a `StatusReport` from the running caches.
struct StatusReporter: Sendable {
    let configuration: Configuration
    let rates: RatesCache?
    let documents: DocumentsCache?
    let startedAt: Date
    var clockSkew: ClockSkew? = nil

    /// Async: the mirror's counts are read from the store (once per change) through its async API.
    func report() async -> StatusReport {
        StatusReport(
            version: LarderVersion.current, startedAt: startedAt, clockSkewSeconds: clockSkew?.seconds ?? 0,
            rates: ratesReport(), documents: await documentsReport())
    }

    private func ratesReport() -> ResourceReport? {
        guard let rates, let upstream = configuration.rates else { return nil }
        let summary = rates.summary
        var report = Self.describe(
            rates.refresher, url: upstream.url, format: upstream.format.rawValue,
            counts: .rates(days: summary.days, latestDate: summary.latestDate),
            publication: .init(of: rates),
            failedDocuments: [])
        report.upstreams = rates.upstreamReports
        report.crossCheck = rates.crossCheckReport
        report.mirror = rates.mirrorProgress.snapshot
        return report
    }

    private func documentsReport() async -> ResourceReport? {
        guard let documents, let upstream = configuration.documents else { return nil }
        let summary = await documents.summary
        let failed = documents.failedDownloads
        var report = Self.describe(
            documents.refresher, url: upstream.url, format: upstream.format.rawValue,
            counts: .documents(listed: summary.listed, mirrored: summary.mirrored, bytes: summary.bytes, failed: failed.count),
            publication: nil,
            failedDocuments: failed.prefix(ResourceReport.failedDocumentsShown).map { .init(name: $0.name, message: $0.message) })
        report.sync = documents.syncProgress
        report.upstreams = documents.upstreamReports
        return report
    }

    private static func describe<Outcome>(
        _ refresher: Refresher<Outcome>, url: String, format: String, counts: ResourceReport.Counts,
        publication: ResourceReport.Publication?, failedDocuments: [ResourceReport.FailedDocument]
    ) -> ResourceReport {
        let status = refresher.status
        return ResourceReport(
            upstream: UpstreamClient.redacted(url), format: format, ttlSeconds: Int(refresher.ttl.timeInterval),
            fetchedAt: status.fetchedAt, lastSuccess: status.lastSuccess, lastAttempt: status.lastAttempt,
            nextRefresh: status.retryAt ?? status.nextRefresh, refreshing: refresher.isRefreshing,
            consecutiveFailures: status.failures, stale: refresher.freshness().isExpired,
            lastError: status.lastError.map { .init(kind: $0.kind.rawValue, message: $0.message, at: status.lastErrorAt) },
            counts: counts, publication: publication, failedDocuments: failedDocuments)
    }
}
