import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderRatesAPI
import LarderServing
import LarderStore
import LarderUpstream
import Logging
import Synchronization

/// Compares a newly published day with the other rates upstreams' (SPEC §4.12): every currency's
/// published value, at most once per publication, in the background, so serving never waits for it.
///
/// With two upstreams a disagreement keeps the served numbers and is reported; with three or more
/// the majority per currency wins, and a served value that loses is rewritten in the store and the
/// served snapshot. Anything that goes wrong (an upstream that cannot answer, a store error) changes
/// nothing. One check runs at a time; a newer day that comes meanwhile is checked next. The last checked
/// day is kept in memory only: after a restart the next new day is checked, and a day committed just
/// before a stop is not checked again.
final class RatesCrossCheck: Sendable {
    /// At most this many upstreams take part in one check, the served one included.
    static let maxUpstreams = 4
    /// Majority decisions are held for this many days (the newest), for refreshes that send those days again.
    static let correctionsKept = 10

    private struct State {
        var lastChecked: RateDate?
        var running = false
        /// A newer day that came while a check ran: checked next.
        var pending: (date: RateDate, servedBy: Int)?
        var report: CrossCheckReport?
        /// Per rewritten day and currency: the outvoted value and the majority's.
        var corrections: [RateDate: [String: (outvoted: Decimal, kept: PublishedDecimal)]] = [:]
    }

    let upstreams: [Upstream<RatesFormat>]
    /// Each upstream's health (as `upstreams`): the check tells it which upstreams hold the day and which are behind.
    let health: [UpstreamHealth]
    let store: Store
    let client: any UpstreamTransport
    let maxBytes: Int
    let clock: any FreshnessClock
    /// What "today" is for the bounds of another upstream's answer (SPEC §4.11).
    let today: BoundsClock
    let events: any CacheEvents
    let logger: Logger
    /// Runs the checks, so a graceful stop waits for the one running.
    let background: BackgroundWork
    private let published: Published<RatesSnapshot>
    private let state = Mutex(State())

    init(
        upstreams: [Upstream<RatesFormat>], health: [UpstreamHealth], store: Store, client: any UpstreamTransport, maxBytes: Int,
        published: Published<RatesSnapshot>, clock: any FreshnessClock, today: BoundsClock, events: any CacheEvents,
        background: BackgroundWork, logger: Logger
    ) {
        self.background = background
        self.upstreams = upstreams
        self.health = health
        self.store = store
        self.client = client
        self.maxBytes = maxBytes
        self.published = published
        self.clock = clock
        self.today = today
        self.events = events
        self.logger = logger
    }

    /// The last check's findings; nil before the first.
    var report: CrossCheckReport? { state.withLock { $0.report } }

    /// True while a check runs.
    var isRunning: Bool { state.withLock { $0.running } }

    /// Told after every successful refresh: starts a check of `newest` (by the upstream at `servedBy`)
    /// when it is newer than the last day checked. The first refresh after a start checks the newest
    /// day again: the majority's decisions live in memory, and the primary's full answer after a
    /// restart (its validators are not trusted across one) repeats an outvoted value.
    func refreshed(newest: RateDate?, servedBy: Int = 0) {
        guard upstreams.count > 1, upstreams.indices.contains(servedBy), let newest else { return }
        let starts = state.withLock { state in
            guard state.lastChecked.map({ newest > $0 }) ?? true else { return false }
            state.lastChecked = newest
            if state.running {
                state.pending = (newest, servedBy)
                return false
            }
            state.running = true
            return true
        }
        guard starts else { return }
        let started = background.submit {
            var next: (date: RateDate, servedBy: Int)? = (newest, servedBy)
            while let (date, served) = next {
                await self.check(date, servedBy: served)
                next = self.state.withLock { state in
                    defer { state.pending = nil }
                    // Stopping: the day waiting is left unchecked, as after a restart.
                    if state.pending == nil || Task.isCancelled { state.running = false; return nil }
                    return state.pending
                }
            }
        }
        // Shutting down: no check starts.
        if !started { state.withLock { $0.running = false; $0.pending = nil } }
    }

    /// `written` (a refresh's committed days) with the majority's values put back where a day a check
    /// rewrote came again with the outvoted value (a feed that sends every day each time, or `updatedAfter`
    /// revisions), committed before they are served; a currency whose value changed otherwise is the
    /// upstream's revision, and the correction is dropped. On a store error the days stay as written.
    func keepingMajority(_ written: [RateSet]) async -> [RateSet] {
        let corrections = state.withLock { $0.corrections }
        guard !corrections.isEmpty else { return written }
        var result = written
        var changed: [RateSet] = []
        var dropped: [(RateDate, String)] = []
        for (index, set) in written.enumerated() {
            guard let held = corrections[set.date] else { continue }
            var replaced = false
            let rates = set.rates.map { rate -> CurrencyRate in
                guard let correction = held[rate.code], rate.value.value != correction.kept.value else { return rate }
                guard rate.value.value == correction.outvoted else {
                    dropped.append((set.date, rate.code))
                    return rate
                }
                replaced = true
                return CurrencyRate(code: rate.code, name: rate.name, value: correction.kept)
            }
            guard replaced else { continue }
            let corrected = RateSet(date: set.date, base: set.base, rates: rates, createdAt: set.createdAt, updatedAt: set.updatedAt)
            result[index] = corrected
            changed.append(corrected)
        }
        if !dropped.isEmpty {
            state.withLock { state in
                for (date, code) in dropped { state.corrections[date]?[code] = nil }
            }
        }
        guard !changed.isEmpty else { return written }
        let store = store
        let now = clock.now
        let records = changed
        do {
            if let item = try await store.item(resource: RateSetRecord.resource, key: RatesSync.itemKey) {
                try await store.commitRates(records.map { RateSetRecord($0, storedAt: now) }, item: item)
            }
        } catch {
            logger.warning("rates: could not keep the cross-check's majority values: \(error.message)")
            return written
        }
        logger.info("rates: kept the cross-check's majority values of \(changed.map(\.date.description).joined(separator: ", ")) over the upstream's outvoted ones")
        return result
    }

    private func check(_ date: RateDate, servedBy: Int) async {
        let store = store
        let key = date.description
        let stored: RateSet
        do {
            let record = try await store.rateSets(dates: [key])[key]
            guard let record, let set = RateSet(record) else { return }
            stored = set
        } catch {
            logger.warning("rates: cross-check of \(date) skipped: \(error.message)")
            return
        }
        let now = clock.now
        // A `;fallback` upstream is never cross-checked: it is the origin a tier keeps its requests from.
        let others = Array(upstreams.indices.filter { $0 != servedBy && !upstreams[$0].fallback }.prefix(Self.maxUpstreams - 1))
        let answers = await withTaskGroup(of: (Int, CrossCheckAnswer).self) { group in
            for index in others {
                group.addTask { (index, await self.read(date, base: stored.base, from: self.upstreams[index], now: now)) }
            }
            var answers: [Int: CrossCheckAnswer] = [:]
            for await (index, answer) in group { answers[index] = answer }
            return answers
        }
        let findings = CrossCheckFindings(
            served: (Self.label(upstreams[servedBy]), upstreams[servedBy].format.rawValue, stored),
            others: others.map { index in
                (Self.label(upstreams[index]), upstreams[index].format.rawValue, answers[index] ?? .unavailable("no answer"))
            })
        for (index, answer) in answers { tell(health[index], answer, date: date) }
        var rewritten = false
        if let corrected = findings.corrected {
            rewritten = await rewrite(stored, with: corrected)
            if rewritten { hold(findings, date: date) }
        }
        let report = findings.report(date: date, checkedAt: now, rewritten: rewritten)
        state.withLock { $0.report = report }
        events.ratesCrossChecked(report.metricOutcome, disagreements: report.disagreements.count)
        log(report)
    }

    /// Day `date` as `upstream` publishes it: its whole answer read and bounded as a refresh would,
    /// then the one day picked out.
    private func read(_ date: RateDate, base: String, from upstream: Upstream<RatesFormat>, now: Date) async -> CrossCheckAnswer {
        let url = RatesRequest.url(base: upstream.url, format: upstream.format, for: .day(date))
        let body: UpstreamBody
        do {
            switch try await client.fetch(url, validators: .none, maxBytes: maxBytes) {
            case .fetched(let fetched): body = fetched
            case .notModified: return .unavailable("answered 304 to an unconditional request")
            }
        } catch {
            return .unavailable(error.message)
        }
        let payload: ParsedRates
        let today = today.later(than: now)
        do {
            payload = try await store.blocking.run { () throws(RatesFormatError) in
                let payload = try RatesParser.parse(body.bytes, format: upstream.format, fetchedAt: now)
                try RateBounds(format: payload.format, now: today).check(payload.sets)
                return payload
            }
        } catch {
            return .unavailable("refused the rates payload: \(error.message)")
        }
        guard let set = payload.sets.first(where: { $0.date == date }) else {
            if let newest = payload.latest?.date, newest < date { return .behind(newest: newest) }
            return .unavailable("no rates for \(date)")
        }
        guard set.base == base else { return .unavailable("rates against \(set.base), not \(base)") }
        return .day(set)
    }

    /// Writes the majority's day over the served one in one transaction, and serves it, unless a
    /// refresh replaced the day meanwhile; false when nothing was written.
    private func rewrite(_ checked: RateSet, with corrected: RateSet) async -> Bool {
        let store = store
        let key = checked.date.description
        let now = clock.now
        do {
            guard let record = try await store.rateSets(dates: [key])[key], RateSet(record)?.hasSameRates(as: checked) == true,
                  let item = try await store.item(resource: RateSetRecord.resource, key: RatesSync.itemKey) else { return false }
            try await store.commitRates([RateSetRecord(corrected, storedAt: now)], item: item)
        } catch {
            logger.warning("rates: cross-check could not rewrite \(checked.date): \(error.message)")
            return false
        }
        let applied = RatesSync.Applied(
            outcome: RatesRefreshOutcome(kind: .updated, daysChanged: 1, date: corrected.date), written: [corrected])
        published.merge(applied, storedAt: now)
        return true
    }

    /// An answer tells whether the upstream holds the day checked (then it is up to date: a behind one
    /// takes its place back) or is behind; an unavailable one tells nothing.
    private func tell(_ health: UpstreamHealth, _ answer: CrossCheckAnswer, date: RateDate) {
        switch answer {
        case .day: health.holds(newestDay: date.description, behind: false)
        case .behind(let newest): health.holds(newestDay: newest.description, behind: true)
        case .unavailable: break
        }
    }

    /// Remembers the majority's decisions on `date` for `keepingMajority`.
    private func hold(_ findings: CrossCheckFindings, date: RateDate) {
        let served = Dictionary(findings.served.day.rates.map { ($0.code, $0.value.value) }, uniquingKeysWith: { first, _ in first })
        var held: [String: (outvoted: Decimal, kept: PublishedDecimal)] = [:]
        for entry in findings.votes where entry.vote.servedLost {
            if let outvoted = served[entry.code] { held[entry.code] = (outvoted, entry.vote.kept) }
        }
        state.withLock { state in
            state.corrections[date] = held
            for old in state.corrections.keys.sorted().dropLast(Self.correctionsKept) { state.corrections[old] = nil }
        }
    }

    private func log(_ report: CrossCheckReport) {
        for asked in report.behindUpstreams {
            logger.notice("rates: cross-check of \(report.date): \(asked.label) is behind (newest \(asked.newestDay ?? "none"))")
        }
        switch report.outcome {
        case .agreed:
            logger.info("rates: cross-check of \(report.date): \(report.upstreams.count) upstreams agree")
        case .unavailable, .behind:
            let reasons = report.upstreams.compactMap { asked in asked.error.map { "\(asked.label): \($0)" } }
            logger.notice("rates: cross-check of \(report.date): no other upstream answered (\(reasons.joined(separator: "; ")))")
        case .disagreed, .served:
            let details = report.disagreements.map { disagreement in
                disagreement.currency + " " + disagreement.values.map { "\($0.label)=\($0.value)" }.joined(separator: " ")
                    + " kept \(disagreement.kept)"
            }
            let odd = report.oddUpstreams.isEmpty ? "" : "; odd: \(report.oddUpstreams.joined(separator: ", "))"
            logger.warning(
                "rates: cross-check of \(report.date): upstreams disagree on \(report.disagreements.count) currenc\(report.disagreements.count == 1 ? "y" : "ies"): \(details.joined(separator: "; "))\(odd)\(report.rewritten ? "; the majority's values are served" : "")")
        }
    }

    private static func label(_ upstream: Upstream<RatesFormat>) -> String {
        UpstreamClient.redacted(upstream.url)
    }
}

extension CrossCheckReport {
    /// The check's outcome as `/metrics` counts it.
    var metricOutcome: CrossCheckOutcome {
        switch outcome {
        case .agreed, .served: .agreed
        case .disagreed: .disagreed
        case .unavailable, .behind: .unavailable
        }
    }
}
