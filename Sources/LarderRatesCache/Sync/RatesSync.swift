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

    /// What a refresh committed, for the served history to take in without reading the store again.
    struct Applied: Sendable {
        var outcome: RatesRefreshOutcome
        /// The days written, and whether they replaced every stored day (a new upstream's first copy).
        var written: [RateSet] = []
        var replacedAll = false
        /// The format the body was read as; nil after a 304.
        var format: RatesFormat?
    }

    let upstream: UpstreamResource<RatesFormat>
    let store: Store
    let client: any UpstreamTransport
    let maxBytes: Int
    /// Pending while the stored days came from a previous upstream URL (SPEC §4.9).
    let upstreamSwitch: UpstreamSwitch
    let events: any CacheEvents
    let logger: Logger

    func run(contactAt now: Date) async -> Result<Applied, RefreshError> {
        do {
            return .success(try await attempt(now))
        } catch let error as RefreshError {
            return .failure(error)
        } catch {
            return .failure(RefreshError(.store, "\(error)"))
        }
    }

    /// The store's reads and writes, and the parse, run off the cooperative pool (`OffPool`): a
    /// commit waits for the disk, and the pool's few threads must stay free to answer requests.
    private func attempt(_ now: Date) async throws -> Applied {
        let store = store
        let (item, latest) = try await OffPool.run { () throws(StoreError) in
            (try store.item(resource: RateSetRecord.resource, key: Self.itemKey), try store.latestRateSet())
        }
        // A new upstream's copy starts from scratch: asked for everything, as on a first sync.
        let purpose = RatesRequestPurpose.refresh(
            newestStored: upstreamSwitch.isPending ? nil : latest.flatMap { RateDate($0.date) },
            lastSuccess: item?.fetchedAt)
        let request = Request(
            url: RatesRequest.url(base: upstream.url, format: upstream.format, for: purpose),
            incremental: RatesRequest.isIncremental(format: upstream.format, for: purpose),
            revisions: RatesRequest.revisesPastDays(format: upstream.format, for: purpose))
        // Validators only make sense while the data they validate is still stored, from this upstream,
        // and for the same URL (an incremental request's changes every time).
        let validators = latest == nil || upstreamSwitch.isPending || request.incremental ? UpstreamValidators.none
            : UpstreamValidators(etag: item?.etag, lastModified: item?.lastModified)
        let answer: UpstreamResult
        do {
            answer = try await client.fetch(request.url, validators: validators, maxBytes: maxBytes)
        } catch {
            events.upstreamFetch(.rates, outcome: .error)
            throw RefreshError(error.gaveNoAnswer ? .unreachable : .upstreamError, error.message)
        }
        switch answer {
        case .notModified(let sent):
            // Asked without validators, a new upstream has nothing to confirm: a 304 is no copy of it.
            guard !upstreamSwitch.isPending else {
                events.upstreamFetch(.rates, outcome: .error)
                throw RefreshError(.upstreamError, "the new upstream answered 304 to an unconditional request")
            }
            events.upstreamFetch(.rates, outcome: .notModified)
            try await OffPool.run { () throws(StoreError) in
                try store.touch(
                    resource: RateSetRecord.resource, key: Self.itemKey, fetchedAt: now,
                    etag: sent.etag, lastModified: sent.lastModified)
            }
            return Applied(outcome: RatesRefreshOutcome(
                kind: .notModified, daysChanged: 0, date: latest.flatMap { RateDate($0.date) }))
        case .fetched(let body):
            return try await OffPool.run { try apply(body, request: request, latest: latest, now: now) }
        }
    }

    /// The URL asked, and how its answer is read.
    private struct Request {
        var url: String
        /// Asks only what changed: an answer with no day is "unchanged".
        var incremental: Bool
        /// Past days in the answer are revisions to merge, not a regression.
        var revisions: Bool
    }

    private func apply(
        _ body: UpstreamBody, request: Request, latest: RateSetRecord?, now: Date
    ) throws -> Applied {
        let payload: ParsedRates
        let latestDate = latest.flatMap { RateDate($0.date) }
        do throws(RatesFormatError) {
            // An incremental answer with no day is well-formed: nothing changed.
            payload = try RatesParser.parse(body.bytes, format: upstream.format, fetchedAt: now, allowingNoDays: request.incremental)
            // Bounded before anything is stored (SPEC §4.11): one day years ahead would otherwise
            // become the newest, refuse every real day as a regression and push the schedule past it.
            try RateBounds(format: payload.format, now: now).check(payload.sets)
        } catch {
            events.upstreamFetch(.rates, outcome: .refused)
            throw RefreshError(.invalidPayload, "refused the rates payload: \(error.message)")
        }
        events.upstreamFetch(.rates, outcome: .fetched)
        guard let newest = payload.latest else {
            // Nothing changed since the last success: the copy is confirmed, as by a 304.
            try store.touch(resource: RateSetRecord.resource, key: Self.itemKey, fetchedAt: now, etag: nil, lastModified: nil)
            return Applied(outcome: RatesRefreshOutcome(kind: .unchanged, daysChanged: 0, date: latestDate), format: payload.format)
        }
        // A payload of revised past days leaves the newest day's timestamps as stored.
        let dated = latestDate.map { newest.date < $0 } == true ? latest.map(Timestamps.init) : Timestamps(newest)
        let item = ItemRecord(
            resource: RateSetRecord.resource, key: Self.itemKey, fetchedAt: now,
            createdAt: dated?.createdAt, updatedAt: dated?.updatedAt,
            etag: body.validators.etag, lastModified: body.validators.lastModified)
        if upstreamSwitch.isPending {
            // A new upstream's first valid copy replaces the old one whole; never-regress compares
            // copies of one upstream, so it does not apply across the change (SPEC §4.9).
            try store.commitRates(
                payload.sets.map { RateSetRecord($0, storedAt: now) }, item: item, format: payload.format.rawValue,
                adopting: upstream.url)
            upstreamSwitch.completed()
            logger.notice("rates: the new upstream's \(payload.sets.count) day(s) replaced the previous upstream's; newest \(newest.date)")
            return Applied(
                outcome: RatesRefreshOutcome(kind: .updated, daysChanged: payload.sets.count, date: newest.date),
                written: payload.sets, replacedAll: true, format: payload.format)
        }
        let stored = try store.rateSets(dates: payload.sets.map(\.date.description))
        let plan = RatesMerge.plan(payload: payload, stored: stored, latest: latest, now: now, revisions: request.revisions)
        if let regression = plan.regression {
            logger.warning("rates: refused older upstream data: \(regression)")
            events.regressionRefused(.rates)
            try store.touch(resource: RateSetRecord.resource, key: Self.itemKey, fetchedAt: now, etag: nil, lastModified: nil)
            return Applied(
                outcome: RatesRefreshOutcome(kind: .regressionRefused, daysChanged: 0, date: latestDate),
                format: payload.format)
        }
        try store.commitRates(
            plan.write.map { RateSetRecord($0, storedAt: now) }, item: item, format: payload.format.rawValue)
        let date = max(latestDate ?? newest.date, newest.date)
        if plan.write.isEmpty {
            return Applied(outcome: RatesRefreshOutcome(kind: .unchanged, daysChanged: 0, date: date), format: payload.format)
        }
        logger.info("rates: stored \(plan.write.count) day(s); newest \(date)")
        return Applied(
            outcome: RatesRefreshOutcome(kind: .updated, daysChanged: plan.write.count, date: date),
            written: plan.write, format: payload.format)
    }
}

extension StoreError {
    /// A store failure as a refresh failure.
    var refreshError: RefreshError { RefreshError(.store, message) }
}
