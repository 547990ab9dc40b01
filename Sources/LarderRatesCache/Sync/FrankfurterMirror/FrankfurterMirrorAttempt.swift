import Foundation
import LarderFormats
import LarderFreshness
import LarderRates
import LarderServing
import LarderStore
import LarderUpstream
import Logging
import Synchronization

/// One refresh of a Frankfurter v2 mirror from one upstream: the catalogue (`/v2/providers`,
/// `/v2/currencies?scope=all`) kept as given, then `FrankfurterMirrorPlan`'s queries, at most 2 in
/// flight, each answer committed on its own (so a restart continues), the `ECB` provider's days
/// also stored as the rate days `/rates` and v1 serve.
struct FrankfurterMirrorAttempt: Sendable {
    let sync: RatesSync
    /// The upstream's place in the list.
    let index: Int
    let root: String
    let label: String
    /// `.staged` while the stored copy is a previous upstream's: this sync fills tables beside the
    /// served ones, swapped in whole once every provider is complete (SPEC §4.9).
    let tables: FrankfurterTables

    /// Requests in flight at once.
    static let parallel = 2
    /// Tries of one query answered 429 or 503 before the refresh gives up (its finished windows stay).
    static let tries = 4
    /// The longest `Retry-After` waited (a longer one ends the refresh; the schedule retries later).
    static let longestWait = 120
    /// Whose rows are the rate days (Frankfurter's v1 is the ECB's).
    static let pivot = (provider: "ECB", base: "EUR")

    /// The root answered 404 to `/v2/providers`: it serves no v2 to mirror.
    struct NoV2: Error {}

    func run(_ now: Date) async throws -> RatesSync.Applied {
        do {
            return try await mirror(now)
        } catch let error as NoV2 {
            throw error
        } catch {
            sync.mirrorProgress.failed()
            throw error
        }
    }

    private func mirror(_ now: Date) async throws -> RatesSync.Applied {
        let progress = sync.mirrorProgress
        let until = RateDate(containing: sync.today.later(than: now)).adding(days: 1) ?? .lastDay
        // The catalogue asked with the validator of the last whole refresh: a Larder's changes whenever a
        // row of its mirror does, so a 304 is the whole refresh (one request to a primary with nothing new).
        let remembered = tables == .live ? sync.upstreams.catalogueETag(index) : nil
        let catalogueAnswer = try await ask("v2/providers", validators: UpstreamValidators(etag: remembered), absentIf404: true)
        guard let catalogueAnswer else { throw NoV2() }
        let providersAnswer: UpstreamBody
        switch catalogueAnswer {
        case .notModified(_, let freshFor):
            return try await unchanged(freshFor: freshFor, until: until, now: now)
        case .fetched(let body):
            providersAnswer = body
        }
        let providersBody = providersAnswer.bytes
        // The catalogue's freshness stands for the mirror's (`--rates-schedule follow` of a Larder primary).
        sync.follow?.follow(providersAnswer.freshFor)
        guard let catalogue = FrankfurterMirrorPlan.providers(providersBody, until: until) else {
            sync.events.upstreamFetch(.rates, upstream: label, outcome: .refused)
            throw RefreshError(.invalidPayload, "refused /v2/providers: not a list of providers")
        }
        for skipped in catalogue.skipped {
            sync.logger.warning("rates: skipped provider \(skipped.key) of \(label)'s /v2/providers: \(skipped.reason)")
        }
        for bounded in catalogue.bounded {
            sync.logger.warning("rates: provider \(bounded.key) of \(label)'s /v2/providers \(bounded.reason)")
        }
        let providers = catalogue.providers
        let currencies = try await get("v2/currencies?scope=all")
        if tables == .staged { try await sync.store.stageFrankfurter(for: sync.identity) }
        try await sync.store.saveFrankfurterCatalog("providers", json: providersBody, in: tables)
        try await sync.store.saveFrankfurterCatalog("currencies", json: currencies, in: tables)
        let newest = try await sync.store.frankfurterNewestDays(notAfter: until.description, in: tables).compactMapValues { RateDate($0) }
        let before = try await sync.store.frankfurterFinishedWindows(in: tables)
        progress.start(
            providers: providers.count, complete: Self.complete(providers, before), rows: try await sync.store.frankfurterRowCount(in: tables),
            skipped: catalogue.skipped.map { .init(key: $0.key, reason: $0.reason) },
            bounded: catalogue.bounded.map { .init(key: $0.key, reason: $0.reason) })
        let orientations = try await FrankfurterProbeRun(attempt: self, until: until, now: now).orientations(providers, finished: before)
        let plan = FrankfurterMirrorPlan(
            providers: providers, finished: before, newest: newest, orientations: orientations, until: until)
        let queries = providers.flatMap(plan.queries)
        progress.plan(queries.count)
        var written: [RateSet] = []
        var added = 0
        try await withThrowingTaskGroup(of: (added: Int, days: [RateSet]).self) { group in
            var pending = queries[...]
            func next() {
                guard let query = pending.popFirst() else { return }
                group.addTask { try await fetch(query, until: until, now: now) }
            }
            for _ in 0..<Self.parallel { next() }
            while let result = try await group.next() {
                added += result.added
                written += result.days
                next()
            }
        }
        // A provider whose every window is stored is complete: later refreshes ask it incrementally.
        let finished = try await sync.store.frankfurterFinishedWindows(in: tables)
        for provider in providers where !plan.isComplete(provider) {
            let windows = FrankfurterMirrorPlan(
                providers: [], finished: finished, newest: [:], orientations: orientations, until: until).queries(for: provider)
            if windows.isEmpty { try await mark(provider.key, window: FrankfurterMirrorPlan.complete, now: now) }
        }
        // A day gained rows in two answers (a window's opening rows): its fuller set is the later one.
        let days = Dictionary(written.map { ($0.date, $0) }) { $0.rates.count >= $1.rates.count ? $0 : $1 }
            .values.sorted { $0.date < $1.date }
        let rows = try await sync.store.frankfurterRowCount(in: tables)
        let complete = Self.complete(providers, try await sync.store.frankfurterFinishedWindows(in: tables))
        progress.stop(complete: complete, rows: rows)
        let skipped = catalogue.skipped.isEmpty ? "" : "; skipped " + catalogue.skipped.map { "\($0.key) (\($0.reason))" }.joined(separator: ", ")
        let served = "\(complete)/\(providers.count) provider(s) synced, \(rows) row(s) mirrored, \(added) new\(skipped)"
        sync.logger.info("rates: mirrored Frankfurter v2 from \(label): \(served) in \(queries.count) request(s)")
        var applied: RatesSync.Applied
        if tables == .staged {
            applied = try await adopt(complete: complete, of: providers.count, served: served, now: now)
        } else {
            let date = days.last?.date ?? newest[Self.pivot.provider]
            applied = RatesSync.Applied(
                outcome: RatesRefreshOutcome(kind: days.isEmpty ? .unchanged : .updated, daysChanged: days.count, date: date),
                written: days, format: .frankfurter, served: served, mirrored: true)
        }
        applied.written = try await publishedDigits(applied.written, now: now)
        // Whole: the next refresh may end at a 304 to this catalogue's validator.
        if tables == .live { sync.upstreams.refreshed(index, catalogueETag: providersAnswer.validators.etag) }
        return applied
    }

    /// The upstream's catalogue answered 304 to the last whole refresh's validator: nothing to ask.
    private func unchanged(freshFor: Int?, until: RateDate, now: Date) async throws -> RatesSync.Applied {
        sync.follow?.follow(freshFor)
        sync.events.upstreamFetch(.rates, upstream: label, outcome: .notModified)
        try await sync.store.touch(resource: RateSetRecord.resource, key: RatesSync.itemKey, fetchedAt: now, etag: nil, lastModified: nil)
        let newest = try await sync.store.frankfurterNewestDays(notAfter: until.description)[Self.pivot.provider].flatMap { RateDate($0) }
        return RatesSync.Applied(
            outcome: RatesRefreshOutcome(kind: .notModified, daysChanged: 0, date: newest),
            served: "nothing new since the last refresh (/v2/providers not modified)")
    }

    /// The staged mirror, once every provider is complete, swapped in for the previous upstream's copy
    /// in one transaction, with the rate days of its `ECB` rows (SPEC §4.9); until then the refresh fails
    /// and the previous copy stays served, stale.
    private func adopt(complete: Int, of total: Int, served: String, now: Date) async throws -> RatesSync.Applied {
        guard complete == total, total > 0 else {
            throw RefreshError(.upstreamError, "the new upstream's mirror is not complete yet (\(complete)/\(total) provider(s))")
        }
        let derived = Mutex<[RateSet]>([])
        let records = try await sync.store.adoptStagedFrankfurter(upstream: sync.identity, pivot: Self.pivot, item: item(now)) { days in
            let sets = Self.rateSets(days)
            derived.withLock { $0 = sets }
            return sets.map { RateSetRecord($0, storedAt: now) }
        }
        sync.upstreamSwitch.completed()
        let days = derived.withLock { $0 }.sorted { $0.date < $1.date }
        sync.logger.notice("rates: the new upstream's mirror replaced the previous upstream's copy: \(served), \(records.count) rate day(s)")
        return RatesSync.Applied(
            outcome: RatesRefreshOutcome(kind: .updated, daysChanged: days.count, date: days.last?.date),
            written: days, replacedAll: true, format: .frankfurter, served: served, mirrored: true)
    }

    /// `days` with the upstream's v1 digits where they differ only in how they are written, those stored.
    private func publishedDigits(_ days: [RateSet], now: Date) async throws -> [RateSet] {
        let published = await FrankfurterPublishedDigits(attempt: self).applied(to: days, now: now)
        let changed = zip(days, published).filter { $0 != $1 }.map(\.1)
        if !changed.isEmpty {
            try await sync.store.commitRates(changed.map { RateSetRecord($0, storedAt: now) }, item: item(now))
        }
        return published
    }

    /// The rate days `/rates` and v1 serve, from the pivot's rows by day.
    private static func rateSets(_ days: [String: [(quote: String, rate: String)]]) -> [RateSet] {
        days.compactMap { date, rates -> RateSet? in
            guard let day = RateDate(date) else { return nil }
            let values = rates.compactMap { rate in PublishedDecimal(rate.rate).map { CurrencyRate(code: rate.quote, value: $0) } }
            return RateSet(date: day, base: Self.pivot.base, rates: values)
        }
    }

    /// The freshness record a commit saves: contact now, no validators (each query's answer is its own).
    private func item(_ now: Date) -> ItemRecord {
        ItemRecord(
            resource: RateSetRecord.resource, key: RatesSync.itemKey, fetchedAt: now, createdAt: nil, updatedAt: nil,
            etag: nil, lastModified: nil)
    }

    /// How many of `providers` the finished windows mark complete.
    private static func complete(_ providers: [FrankfurterMirrorPlan.Provider], _ finished: [String: Set<String>]) -> Int {
        providers.filter { finished[$0.key]?.contains(FrankfurterMirrorPlan.complete) == true }.count
    }

    /// One query: fetched (waiting out 429 and 503 as `Retry-After` says), read, bounded, committed.
    private func fetch(_ query: FrankfurterMirrorPlan.Query, until: RateDate, now: Date) async throws -> (added: Int, days: [RateSet]) {
        let body = try await get(query.target)
        let rows: [FrankfurterRowRecord]
        do throws(RatesFormatError) {
            rows = try Self.rows(body, provider: query.provider, until: until)
        } catch {
            sync.events.upstreamFetch(.rates, upstream: label, outcome: .refused)
            throw RefreshError(.invalidPayload, "refused \(query.target): \(error.message)")
        }
        let derived = Mutex<[RateSet]>([])
        let added = try await sync.store.commitFrankfurter(
            rows, provider: query.provider, window: query.window, finishedAt: now, in: tables, pivot: Self.pivot, item: item(now)
        ) { days in
            let sets = Self.rateSets(days)
            derived.withLock { $0 = sets }
            return sets.map { RateSetRecord($0, storedAt: now) }
        }
        sync.mirrorProgress.answered(rowsAdded: added.count)
        return (added.count, derived.withLock { $0 })
    }

    func mark(_ provider: String, window: String, now: Date) async throws {
        _ = try await sync.store.commitFrankfurter(
            [], provider: provider, window: window, finishedAt: now, in: tables, pivot: Self.pivot, item: item(now)) { _ in [] }
    }

    /// A GET of `target` under the root; a 429 or 503 is asked again after its `Retry-After` (1 s without one).
    func get(_ target: String) async throws(RefreshError) -> [UInt8] {
        // Never nil and never a 304: only `absentIf404` answers nil, only validators a 304.
        guard case .fetched(let body)? = try await ask(target, validators: .none, absentIf404: false) else { return [] }
        return body.bytes
    }

    /// `get`'s whole answer: a 304 only to `validators` that hold one, nil for a 404 when `absentIf404`.
    private func ask(_ target: String, validators: UpstreamValidators, absentIf404: Bool) async throws(RefreshError) -> UpstreamResult? {
        var tries = 0
        while true {
            tries += 1
            do {
                let result = try await sync.client.fetch(root + target, validators: validators, maxBytes: sync.maxBytes)
                if case .notModified = result {
                    guard validators.etag != nil || validators.lastModified != nil else {
                        throw RefreshError(.upstreamError, "\(target): 304 to an unconditional request")
                    }
                    return result
                }
                sync.events.upstreamFetch(.rates, upstream: label, outcome: .fetched)
                return result
            } catch let error as UpstreamError {
                if absentIf404, error.status == 404 {
                    sync.events.upstreamFetch(.rates, upstream: label, outcome: .error)
                    return nil
                }
                let wait = error.retryAfter ?? 1
                guard [429, 503].contains(error.status ?? 0), tries < Self.tries, wait <= Self.longestWait else {
                    sync.events.upstreamFetch(.rates, upstream: label, outcome: .error)
                    throw RefreshError(error.gaveNoAnswer ? .unreachable : .upstreamError, "\(target): \(error.message)")
                }
                sync.logger.notice("rates: \(label) answered \(error.status ?? 0) to \(target); asking again in \(wait) s")
                try? await Task.sleep(for: .seconds(wait))
            } catch let error as RefreshError {
                throw error
            } catch {
                throw RefreshError(.upstreamError, "\(target): \(error)")
            }
        }
    }

    /// A `/v2/rates` answer's rows: `[{date, base, quote, rate}]`, the rate's digits as sent; the
    /// identity row left out; a day after `until` refuses the answer whole (SPEC §4.11).
    static func rows(_ body: [UInt8], provider: String, until: RateDate) throws(RatesFormatError) -> [FrankfurterRowRecord] {
        guard case .array(let entries)? = try? JSONReader.read(body) else { throw RatesFormatError("not a JSON array of rates") }
        var rows: [FrankfurterRowRecord] = []
        rows.reserveCapacity(entries.count)
        for entry in entries {
            guard case .object(let fields) = entry, case .string(let date)? = fields["date"], let day = RateDate(date),
                  case .string(let base)? = fields["base"], case .string(let quote)? = fields["quote"],
                  case .number(let rate)? = fields["rate"], CurrencyRate.isValidCode(base), CurrencyRate.isValidCode(quote),
                  let value = Decimal(string: rate, locale: Locale(identifier: "en_US_POSIX")), value > 0
            else { throw RatesFormatError("a row is not {date, base, quote, rate}") }
            guard day <= until else { throw RatesFormatError("a row dated \(date), after \(until)") }
            if base != quote { rows.append(FrankfurterRowRecord(provider: provider, date: date, base: base, quote: quote, rate: rate)) }
        }
        return rows
    }
}
