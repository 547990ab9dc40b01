import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderServing
import LarderStore
import LarderUpstream
import Logging

/// One upstream asked once within a refresh: conditional GET, parse, bounds, merge, one commit. A
/// thrown `RefreshError` of any kind but `.store` is the upstream's failure; the refresh moves on.
struct RatesUpstreamAttempt: Sendable {
    /// The refresh this attempt is part of: the store, client, limits and events it works with.
    let sync: RatesSync
    /// The upstream's place in the configured list.
    let index: Int
    let upstream: Upstream<RatesFormat>
    /// The upstream's name in metrics and logs, without credentials.
    let label: String
    /// Whether the stored validators came from this upstream (only then are they sent).
    let ownsValidators: Bool

    /// The store's reads and writes go through its async API, and the parse runs on the `BlockingPool`:
    /// a commit waits for the disk, and the cooperative pool's few threads must stay free to answer requests.
    func run(_ now: Date) async throws -> RatesSync.Applied {
        if upstream.format == .frankfurter, FrankfurterMirrorPlan.isRoot(upstream.url), !sync.upstreams.servesV1Only(index) {
            let root = upstream.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? upstream.url
            do {
                return try await FrankfurterMirrorAttempt(
                    sync: sync, index: index, root: root.hasSuffix("/") ? root : root + "/", label: label,
                    tables: sync.upstreamSwitch.isPending ? .staged : .live
                ).run(now)
            } catch is FrankfurterMirrorAttempt.NoV2 {
                // An older Frankfurter (v1 at its root, as api.frankfurter.app was): its ranges, as for a `/v1/` URL.
                sync.upstreams.markV1Only(index)
                sync.logger.notice("rates: \(label) answered 404 to /v2/providers: read as Frankfurter v1 ranges at its root")
            }
        }
        let store = sync.store
        // The newest day within the bounds: one an earlier Larder stored for 9999 is no newest day to regress from.
        let newestAllowed = RateBounds(format: upstream.format, now: sync.today.later(than: now)).latest.description
        let item = try await store.item(resource: RateSetRecord.resource, key: RatesSync.itemKey)
        let latest = try await store.rateSet(onOrBefore: newestAllowed)
        // A new upstream's copy starts from scratch: asked for everything, as on a first sync.
        let purpose = RatesRequestPurpose.refresh(
            newestStored: sync.upstreamSwitch.isPending ? nil : latest.flatMap { RateDate($0.date) },
            lastSuccess: latest == nil ? nil : item?.fetchedAt)
        let request = Request(
            url: RatesRequest.url(base: upstream.url, format: upstream.format, for: purpose),
            incremental: RatesRequest.isIncremental(format: upstream.format, for: purpose),
            revisions: RatesRequest.revisesPastDays(format: upstream.format, for: purpose))
        // Validators only make sense while the data they validate is still stored, from this upstream,
        // and for the same URL (an incremental request's changes every time).
        let sendsValidators = latest != nil && !sync.upstreamSwitch.isPending && ownsValidators && !request.incremental
        let validators = sendsValidators
            ? UpstreamValidators(etag: item?.etag, lastModified: item?.lastModified) : UpstreamValidators.none
        let answer: UpstreamResult
        do {
            answer = try await sync.client.fetch(request.url, validators: validators, maxBytes: sync.maxBytes)
        } catch {
            sync.events.upstreamFetch(.rates, upstream: label, outcome: .error)
            throw RefreshError(error.gaveNoAnswer ? .unreachable : .upstreamError, error.message)
        }
        switch answer {
        case .notModified(let sent, let freshFor):
            sync.follow?.follow(freshFor)
            // Asked without validators, a new upstream has nothing to confirm: a 304 is no copy of it.
            // An incremental request's 304 says nothing changed since the last success (the ECB's API).
            guard !sync.upstreamSwitch.isPending, sync.upstreams.isSingle || sendsValidators || request.incremental else {
                sync.events.upstreamFetch(.rates, upstream: label, outcome: .error)
                throw RefreshError(.upstreamError, "the upstream answered 304 to an unconditional request")
            }
            sync.events.upstreamFetch(.rates, upstream: label, outcome: .notModified)
            try await store.touch(
                resource: RateSetRecord.resource, key: RatesSync.itemKey, fetchedAt: now,
                etag: sent.etag, lastModified: sent.lastModified)
            let date = latest.flatMap { RateDate($0.date) }
            return RatesSync.Applied(
                outcome: RatesRefreshOutcome(kind: .notModified, daysChanged: 0, date: date),
                served: date.map { "\($0) (not modified)" })
        case .fetched(let body):
            sync.follow?.follow(body.freshFor)
            // The parse and its commit in one job on the pool, through the store's synchronous API.
            return try await store.blocking.run { try apply(body, request: request, latest: latest, now: now) }
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
    ) throws -> RatesSync.Applied {
        let store = sync.store
        let payload: ParsedRates
        let latestDate = latest.flatMap { RateDate($0.date) }
        do throws(RatesFormatError) {
            // An incremental answer with no day is well-formed: nothing changed.
            payload = try RatesParser.parse(
                body.bytes, format: upstream.format, fetchedAt: now, allowingNoDays: request.incremental)
            // Bounded before anything is stored (SPEC §4.11): one day years ahead would otherwise
            // become the newest, refuse every real day as a regression and push the schedule past it.
            try RateBounds(format: payload.format, now: sync.today.later(than: now)).check(payload.sets)
        } catch {
            sync.events.upstreamFetch(.rates, upstream: label, outcome: .refused)
            throw RefreshError(.invalidPayload, "refused the rates payload: \(error.message)")
        }
        sync.events.upstreamFetch(.rates, upstream: label, outcome: .fetched)
        guard let newest = payload.latest else {
            // Nothing changed since the last success: the copy is confirmed, as by a 304.
            try store.touch(resource: RateSetRecord.resource, key: RatesSync.itemKey, fetchedAt: now, etag: nil, lastModified: nil)
            return RatesSync.Applied(
                outcome: RatesRefreshOutcome(kind: .unchanged, daysChanged: 0, date: latestDate), format: payload.format,
                served: latestDate.map { "\($0) (nothing new)" })
        }
        let served = "\(newest.date) (\(payload.sets.count) day\(payload.sets.count == 1 ? "" : "s"))"
        // A payload of revised past days leaves the newest day's timestamps as stored.
        let dated = latestDate.map { newest.date < $0 } == true ? latest.map(Timestamps.init) : Timestamps(newest)
        let item = ItemRecord(
            resource: RateSetRecord.resource, key: RatesSync.itemKey, fetchedAt: now,
            createdAt: dated?.createdAt, updatedAt: dated?.updatedAt,
            etag: body.validators.etag, lastModified: body.validators.lastModified)
        if sync.upstreamSwitch.isPending {
            // A new upstream's first valid copy replaces the old one whole; never-regress compares
            // copies of one upstream, so it does not apply across the change (SPEC §4.9).
            try store.commitRates(
                payload.sets.map { RateSetRecord($0, storedAt: now) }, item: item, format: payload.format.rawValue,
                adopting: sync.identity)
            sync.upstreamSwitch.completed()
            sync.logger.notice("rates: the new upstream's \(payload.sets.count) day(s) replaced the previous upstream's; newest \(newest.date)")
            return RatesSync.Applied(
                outcome: RatesRefreshOutcome(kind: .updated, daysChanged: payload.sets.count, date: newest.date),
                written: payload.sets, replacedAll: true, format: payload.format, served: served)
        }
        let stored = try store.rateSets(dates: payload.sets.map(\.date.description))
        let plan = RatesMerge.plan(payload: payload, stored: stored, latest: latest, now: now, revisions: request.revisions)
        if let regression = plan.regression {
            sync.logger.warning("rates: refused older upstream data from \(label): \(regression)")
            sync.events.regressionRefused(.rates)
            // Behind the copy: with one upstream, today's `regression_refused` success; with several,
            // this upstream's failure: the next one is asked, and nothing here moves.
            guard sync.upstreams.isSingle else { throw RefreshError(.invalidPayload, "refused older upstream data: \(regression)") }
            try store.touch(resource: RateSetRecord.resource, key: RatesSync.itemKey, fetchedAt: now, etag: nil, lastModified: nil)
            return RatesSync.Applied(
                outcome: RatesRefreshOutcome(kind: .regressionRefused, daysChanged: 0, date: latestDate),
                format: payload.format, served: served)
        }
        try store.commitRates(
            plan.write.map { RateSetRecord($0, storedAt: now) }, item: item, format: payload.format.rawValue)
        let date = max(latestDate ?? newest.date, newest.date)
        if plan.write.isEmpty {
            return RatesSync.Applied(
                outcome: RatesRefreshOutcome(kind: .unchanged, daysChanged: 0, date: date), format: payload.format,
                served: served)
        }
        sync.logger.info("rates: stored \(plan.write.count) day(s) from \(label); newest \(date)")
        return RatesSync.Applied(
            outcome: RatesRefreshOutcome(kind: .updated, daysChanged: plan.write.count, date: date),
            written: plan.write, format: payload.format, served: served)
    }
}
