import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderServing
import LarderStore
import LarderUpstream
import Logging

/// One refresh of the rates: conditional GET, parse, merge, and one committed transaction.
struct RatesSync: Sendable {
    static let itemKey = "feed"

    let upstream: UpstreamResource<RatesFormat>
    let store: Store
    let client: UpstreamClient
    let maxBytes: Int
    let events: any CacheEvents
    let logger: Logger

    func run(contactAt now: Date) async -> Result<RatesRefreshOutcome, RefreshError> {
        do {
            return .success(try await attempt(now))
        } catch let error as RefreshError {
            return .failure(error)
        } catch {
            return .failure(RefreshError(.store, "\(error)"))
        }
    }

    private func attempt(_ now: Date) async throws -> RatesRefreshOutcome {
        let item = try store.item(resource: RateSetRecord.resource, key: Self.itemKey)
        let latest = try store.latestRateSet()
        // Validators only make sense while the data they validate is still stored.
        let validators = latest == nil ? UpstreamValidators.none
            : UpstreamValidators(etag: item?.etag, lastModified: item?.lastModified)
        let answer: UpstreamResult
        do {
            answer = try await client.fetch(upstream.url, validators: validators, maxBytes: maxBytes)
        } catch {
            events.upstreamFetch("rates", outcome: "error")
            throw RefreshError(error.kind == .unreachable || error.kind == .timeout ? .unreachable : .upstreamError,
                               error.message)
        }
        switch answer {
        case .notModified(let sent):
            events.upstreamFetch("rates", outcome: "304")
            try store.touch(
                resource: RateSetRecord.resource, key: Self.itemKey, fetchedAt: now,
                etag: sent.etag, lastModified: sent.lastModified)
            return RatesRefreshOutcome(kind: .notModified, daysChanged: 0, date: latest.flatMap { RateDate($0.date) })
        case .fetched(let body):
            return try apply(body, previous: item, latest: latest, now: now)
        }
    }

    private func apply(
        _ body: UpstreamBody, previous: ItemRecord?, latest: RateSetRecord?, now: Date
    ) throws -> RatesRefreshOutcome {
        let payload: ParsedRates
        do {
            payload = try RatesParser.parse(body.bytes, format: upstream.format, fetchedAt: now)
        } catch {
            events.upstreamFetch("rates", outcome: "refused")
            throw RefreshError(.invalidPayload, "refused the rates payload: \(error.message)")
        }
        events.upstreamFetch("rates", outcome: "200")
        let stored = try store.rateSets(dates: payload.sets.map(\.date.description))
        let plan = RatesMerge.plan(payload: payload, stored: stored, latest: latest)
        let latestDate = latest.flatMap { RateDate($0.date) }
        if let regression = plan.regression {
            logger.warning("rates: refused older upstream data: \(regression)")
            events.regressionRefused("rates")
            try store.touch(resource: RateSetRecord.resource, key: Self.itemKey, fetchedAt: now, etag: nil, lastModified: nil)
            return RatesRefreshOutcome(kind: .regressionRefused, daysChanged: 0, date: latestDate)
        }
        let newest = payload.latest!
        let item = ItemRecord(
            resource: RateSetRecord.resource, key: Self.itemKey, fetchedAt: now,
            createdAt: newest.createdAt, updatedAt: newest.updatedAt,
            etag: body.validators.etag, lastModified: body.validators.lastModified)
        try store.commitRates(plan.write.map { RateSetRecord($0, storedAt: now) }, item: item)
        let date = max(latestDate ?? newest.date, newest.date)
        if plan.write.isEmpty {
            return RatesRefreshOutcome(kind: .unchanged, daysChanged: 0, date: date)
        }
        logger.info("rates: stored \(plan.write.count) day(s); newest \(date)")
        return RatesRefreshOutcome(kind: .updated, daysChanged: plan.write.count, date: date)
    }
}

extension StoreError {
    /// A store failure as a refresh failure.
    var refreshError: RefreshError { RefreshError(.store, message) }
}
