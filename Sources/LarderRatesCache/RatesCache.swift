public import Foundation
public import LarderConfig
public import LarderFreshness
public import LarderRates
import LarderRatesAPI
public import LarderServing
public import LarderStore
public import LarderUpstream
public import Logging

/// The cached exchange rates: every stored day in memory, prepared for serving, and the refresher
/// that keeps them fresh on a TTL or the ECB's publication calendar.
public final class RatesCache: Sendable {
    /// How long a request with nothing cached waits for the first fetch (SPEC §4.5).
    public static let coldWait: Duration = .seconds(10)

    /// What the rates cache is told at start (SPEC §2, §4.10, §6).
    public struct Settings: Sendable {
        public var upstream: UpstreamResource<RatesFormat>
        public var ttl: Duration
        public var schedule: RatesSchedule
        public var pollInterval: Duration
        public var maxBytes: Int
        /// `--rates-provider`; nil: the feed format's key.
        public var provider: String?
        /// With several upstreams, compare each new publication across them (SPEC §4.12).
        public var crossCheck: Bool

        public init(
            upstream: UpstreamResource<RatesFormat>, ttl: Duration, schedule: RatesSchedule = .auto,
            pollInterval: Duration = .seconds(600), maxBytes: Int = 32 * 1024 * 1024, provider: String? = nil,
            crossCheck: Bool = true
        ) {
            self.crossCheck = crossCheck
            self.upstream = upstream
            self.ttl = ttl
            self.schedule = schedule
            self.pollInterval = pollInterval
            self.maxBytes = maxBytes
            self.provider = provider
        }
    }

    public let refresher: Refresher<RatesRefreshOutcome>
    let store: Store
    public let events: any CacheEvents
    public let logger: Logger
    /// Set when the ECB calendar may decide freshness (`ecb`, or `auto`); nil under a plain TTL.
    let calendar: ECBSchedule?
    /// `--rates-schedule follow`'s schedule; nil under the others.
    let follow: FollowSchedule?
    let snapshot: Published<RatesSnapshot>
    /// Who publishes the rates (`/v2/providers`): `--rates-provider`, else the key of the feed's format as last read.
    let publisher: RatesPublisher
    /// The upstreams in priority order and each one's health.
    let upstreams: RatesUpstreams
    /// Compares each new publication with the other upstreams; nil with one upstream (SPEC §4.12).
    let crossCheck: RatesCrossCheck?
    /// Stored days after the bounds at start, served as soon as the bounds pass them (SPEC §4.11).
    let heldOut: HeldOutDays
    /// SPEC §4.11's "today": the later of the clock and the newest instant recorded; v1's and v2's lookbacks run from it.
    public let today: BoundsClock
    /// How far a Frankfurter v2 mirror's sync is; nil figures until one began.
    public let mirrorProgress = FrankfurterMirrorProgress()

    /// Loads every stored day so a restart serves at once; a changed `--rates-url` keeps them, served
    /// stale, until the new upstream delivers (SPEC §4.9). Refreshes and cross-checks run as jobs of `background`.
    public init(
        _ settings: Settings, store: Store, client: any UpstreamTransport, clock: any FreshnessClock,
        events: any CacheEvents, background: BackgroundWork = .standalone, logger: Logger
    ) throws(StoreError) {
        self.store = store
        self.events = events
        self.logger = logger
        let upstreamSwitch = UpstreamSwitch(
            pending: try store.prepare(resource: RateSetRecord.resource, upstreamURL: settings.upstream.identity))
        if upstreamSwitch.isPending {
            logger.notice("rates: the upstream URL changed; the cached rates are served, marked stale, until the new upstream delivers")
        }
        // What the feed is read as: configured, or what an `auto` upstream was last detected as.
        let format = settings.upstream.format == .auto
            ? try store.detectedFormat(resource: RateSetRecord.resource).flatMap(RatesFormat.init(rawValue:)) ?? .auto
            : settings.upstream.format
        let today = BoundsClock(clock: clock, newestRecorded: try store.newestRecordedInstant())
        self.today = today
        let (history, later) = try Self.loadHistory(
            store, within: RateBounds(format: format, now: today.now), notAfter: clock.now, logger: logger)
        let heldOut = HeldOutDays(later)
        self.heldOut = heldOut
        // The newest day served, not the newest stored: a day outside the bounds wedges no schedule.
        var latest: RateSetRecord?
        if let newest = history.days.last?.date.description { latest = try store.rateSets(dates: [newest])[newest] }
        // Reading every stored day peaks well above the ~3 MB the history keeps.
        if history.count >= 100 { MemoryTrim.releaseFreedMemory() }
        let item = try store.item(resource: RateSetRecord.resource, key: RatesSync.itemKey)
        let mirror = try V2Mirror.load(
            store, notAfter: RateBounds(format: format, now: today.now).latest, lastModified: item?.fetchedAt ?? clock.now,
            logger: logger)
        let published = Published(latest.flatMap { RatesSnapshot($0, history: history, mirror: mirror) })
        snapshot = published

        let calendar: ECBSchedule?
        let follow = settings.schedule == .follow ? FollowSchedule() : nil
        switch settings.schedule {
        case .ttl, .follow:
            calendar = nil
        case .ecb, .auto:
            let isECB = settings.schedule == .ecb || format.carriesECBRates
            calendar = ECBSchedule(
                active: isECB, latest: latest.flatMap { RateDate($0.date) }, pollInterval: settings.pollInterval,
                ttl: settings.ttl, events: events)
        }
        self.calendar = calendar
        self.follow = follow
        let publisher = RatesPublisher(configured: settings.provider, format: format)
        self.publisher = publisher
        let followsFormat = settings.schedule == .auto
        let upstreams = RatesUpstreams(settings.upstream)
        self.upstreams = upstreams
        let crossCheck = settings.crossCheck && settings.upstream.upstreams.filter({ !$0.fallback }).count > 1
            ? RatesCrossCheck(
                upstreams: settings.upstream.upstreams, health: upstreams.health, store: store, client: client,
                maxBytes: settings.maxBytes,
                published: published, clock: clock, today: today, events: events, background: background,
                logger: logger)
            : nil
        self.crossCheck = crossCheck
        let sync = RatesSync(
            upstreams: upstreams, identity: settings.upstream.identity, store: store, client: client,
            maxBytes: settings.maxBytes, today: today,
            upstreamSwitch: upstreamSwitch, events: events, logger: logger, mirrorProgress: mirrorProgress, due: calendar,
            follow: follow)
        let schedule: any RefreshSchedule = if let calendar { calendar } else if let follow { follow } else { TTLSchedule(ttl: settings.ttl) }
        refresher = Refresher(
            name: CacheResource.rates.rawValue, schedule: schedule, clock: clock,
            fetchedAt: latest == nil ? nil : item?.fetchedAt, upstreamSwitch: upstreamSwitch, background: background,
            logger: logger, onChange: published.changed
        ) { now in
            // Before the contact, so a day the clock has passed is served even while the upstream is down.
            if await Self.readmit(heldOut, format: format, today: today, store: store, into: published, logger: logger) {
                calendar?.observe(latest: published.current?.set.date)
            }
            let started = ContinuousClock.now
            let result = await sync.run(contactAt: now)
            events.refreshed(.rates, duration: ContinuousClock.now - started)
            guard case .success(var applied) = result else { return result.map(\.outcome) }
            today.recorded(now)
            if let crossCheck { applied.written = await crossCheck.keepingMajority(applied.written) }
            if !applied.written.isEmpty {
                published.merge(applied, storedAt: now)
                // Parsing a whole history (the ECB's is 9 MB of XML, 200,000 rates) peaks at tens of MB
                // that the allocator would otherwise keep; the served history itself is ~3 MB. The
                // parsed days go first, so their memory is free to hand back.
                let large = applied.written.count >= 100
                applied.written = []
                if large { MemoryTrim.releaseFreedMemory() }
            }
            if applied.mirrored {
                // Every mirror refresh: the new rows, and stored ones the bounds now hold.
                let notAfter = RateBounds(format: .frankfurter, now: today.now).latest
                if let mirror = try? await store.blocking.run({ () throws(StoreError) -> V2Mirror? in
                    try V2Mirror.load(store, notAfter: notAfter, lastModified: now, logger: logger)
                }) {
                    published.update { current in current.map { $0.with(mirror) } }
                }
            }
            if let format = applied.format { publisher.read(format) }
            crossCheck?.refreshed(newest: published.current?.set.date, servedBy: applied.servedBy)
            calendar?.observe(
                latest: published.current?.set.date,
                isECB: followsFormat ? applied.format.map(\.carriesECBRates) : nil)
            return .success(applied.outcome)
        }
    }

    /// The newest day prepared for serving; nil while nothing is cached.
    var current: RatesSnapshot? { snapshot.current }

    /// Every stored day's rendered object within `bounds`, and the days after them; days stored before
    /// objects were kept are rendered and saved once. A day outside (an earlier Larder took any day, or
    /// the clock is wrong), or not a date at all, stays on disk, left out with one log line naming it; a
    /// day after the bounds comes back once they pass it (`readmit`), any other at the first start
    /// whose bounds hold it (SPEC §4.11). A `stored_at` after `notAfter` (the clock went back since) is
    /// served as `notAfter`, so no `Last-Modified` comes after `Date` (RFC 9110 §8.8.2.1).
    private static func loadHistory(
        _ store: Store, within bounds: RateBounds, notAfter now: Date, logger: Logger
    ) throws(StoreError) -> (history: RatesHistory, later: [RateDate]) {
        var days = try store.rateDays()
        let outside = days.filter { RateDate($0.date).map(bounds.contains) != true }.map(\.date)
        if !outside.isEmpty {
            days.removeAll { RateDate($0.date).map(bounds.contains) != true }
            let named = outside.prefix(10).map { "'\($0)'" }.joined(separator: ", ") + (outside.count > 10 ? ", …" : "")
            logger.warning("rates: left out \(outside.count) stored day(s) outside \(bounds.earliest)...\(bounds.latest) (today, UTC, + 1 day): \(named); kept on disk, served once the bounds hold them")
        }
        let missing = days.filter { $0.ratesJSON == nil }.map(\.date)
        if !missing.isEmpty {
            var rendered: [(date: String, json: [UInt8])] = []
            for record in try store.rateSets(dates: missing).values {
                if let set = RateSet(record) { rendered.append((record.date, RatesObjectReader.object(for: set))) }
            }
            try store.saveRatesJSON(rendered)
            let byDate = Dictionary(rendered, uniquingKeysWith: { first, _ in first })
            for index in days.indices where days[index].ratesJSON == nil {
                days[index].ratesJSON = byDate[days[index].date]
            }
            logger.info("rates: rendered \(rendered.count) stored day(s) once for the served history")
        }
        let history = RatesHistory(days.compactMap { day in
            guard let date = RateDate(day.date), let object = day.ratesJSON else { return nil }
            return (date, day.base, min(day.storedAt, now), object)
        })
        return (history, outside.compactMap(RateDate.init).filter { $0 > bounds.latest })
    }

    /// Serves the held-out days the bounds now hold, each with its own `stored_at` (never after the
    /// clock), merged into the snapshot as a commit's days are; true when one came back. A day that
    /// cannot be read stays held out.
    private static func readmit(
        _ heldOut: HeldOutDays, format: RatesFormat, today: BoundsClock, store: Store,
        into published: Published<RatesSnapshot>, logger: Logger
    ) async -> Bool {
        guard !heldOut.isEmpty else { return false }
        let due = heldOut.taken(within: RateBounds(format: format, now: today.now))
        guard !due.isEmpty else { return false }
        let dates = due.map(\.description)
        let records: [String: RateSetRecord]
        do {
            records = try await store.rateSets(dates: dates)
        } catch {
            heldOut.putBack(due)
            logger.warning("rates: cannot read the stored days the bounds now hold (\(error)); tried again at the next refresh")
            return false
        }
        let notAfter = today.clock.now
        let days = records.values.compactMap { record in RateSet(record).map { ($0, min(record.storedAt, notAfter)) } }
        published.readmit(days)
        logger.notice("rates: serving \(days.count) stored day(s) the bounds now hold: \(dates.joined(separator: ", "))")
        return !days.isEmpty
    }
}

extension RatesSnapshot {
    /// The snapshot of a stored newest day and the history.
    convenience init?(_ record: RateSetRecord, history: RatesHistory, mirror: V2Mirror?) {
        guard let set = RateSet(record) else { return nil }
        // As the history holds it: never after the clock at start.
        self.init(
            latest: set, storedAt: min(record.storedAt, history.days.last?.storedAt ?? record.storedAt), history: history,
            mirror: mirror)
    }

    /// This snapshot with a Frankfurter v2 mirror's rows.
    func with(_ mirror: V2Mirror) -> RatesSnapshot {
        RatesSnapshot(latest: set, storedAt: storedAt, history: history, mirror: mirror)
    }

    /// The snapshot after a commit: the written days merged into the history (or replacing it whole).
    static func after(
        _ written: [RateSet], replacedAll: Bool = false, current: RatesSnapshot?, storedAt: Date
    ) -> RatesSnapshot? {
        let base = replacedAll ? RatesHistory() : current?.history ?? RatesHistory()
        let history = base.merging(written, storedAt: storedAt)
        guard let newest = history.days.last else { return current }
        // The newest day with the feed's names: as written, as held, or (names lost) from the history.
        let set = written.first { $0.date == newest.date }
            ?? current.flatMap { $0.set.date == newest.date && !replacedAll ? $0.set : nil }
            ?? history.set(at: history.count - 1)
        return set.map { RatesSnapshot(latest: $0, storedAt: newest.storedAt, history: history, mirror: current?.mirror) }
    }
}

extension Published<RatesSnapshot> {
    /// Merges a commit's days into the served snapshot in one step: the one way the refresh and the
    /// cross-check write it, so neither drops a day or a correction the other published meanwhile.
    func merge(_ applied: RatesSync.Applied, storedAt: Date) {
        update { current in
            RatesSnapshot.after(applied.written, replacedAll: applied.replacedAll, current: current, storedAt: storedAt)
        }
    }

    /// Merges stored days back in, each with its own `stored_at`, in the same one step.
    func readmit(_ days: [(set: RateSet, storedAt: Date)]) {
        let byStoredAt = Dictionary(grouping: days, by: \.storedAt)
        update { current in
            byStoredAt.reduce(current) { snapshot, group in
                RatesSnapshot.after(group.value.map(\.set), current: snapshot, storedAt: group.key)
            }
        }
    }
}

extension RatesCache {
    /// What `/status` and `/ready` say about the rates: the newest day and how many are stored.
    public var summary: (latestDate: String?, days: Int) {
        guard let current else { return (nil, 0) }
        return (current.set.date.description, current.history.count)
    }

    /// Each upstream, in priority order, with its health (`/status`, `/metrics`, the status page).
    public var upstreamReports: [UpstreamReport] { upstreams.reports(at: refresher.clock.now) }

    /// True once a rate set is cached (readiness).
    public var hasData: Bool { current != nil }

    /// The publication calendar's state for `/status`; nil under a plain TTL.
    public var publicationSchedule: (schedule: String, nextPublication: Date?, missed: Int) {
        if follow != nil { return ("follow", nil, 0) }
        guard let report = calendar?.report, report.isActive else { return ("ttl", nil, 0) }
        return ("ecb", report.nextPublication, report.missed)
    }
}
