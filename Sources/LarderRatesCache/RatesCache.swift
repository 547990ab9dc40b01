import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderStore
import LarderUpstream
import Logging
import LarderServing

/// The cached exchange rates: the store's days, the newest one prepared for serving, and the
/// refresher that keeps them fresh.
public final class RatesCache: Sendable {
    /// The upstream body cap (SPEC §6), counted after decompression.
    public static let defaultMaxBytes = 8 * 1024 * 1024
    /// How long a request with nothing cached waits for the first fetch (SPEC §4.5).
    public static let coldWait: Duration = .seconds(10)

    public let refresher: Refresher<RatesRefreshOutcome>
    let store: Store
    let events: any CacheEvents
    let logger: Logger
    private let snapshot: Published<RatesSnapshot>

    /// Loads what the store holds (clearing it first when `--rates-url` changed) so a restart serves at once.
    public init(
        upstream: UpstreamResource<RatesFormat>, ttl: Duration, store: Store, client: UpstreamClient,
        clock: any FreshnessClock, maxBytes: Int = RatesCache.defaultMaxBytes,
        events: any CacheEvents = NoCacheEvents(), logger: Logger
    ) throws(StoreError) {
        self.store = store
        self.events = events
        self.logger = logger
        if try store.prepare(resource: RateSetRecord.resource, upstreamURL: upstream.url) {
            logger.notice("rates: the upstream URL changed; cleared the cached rates")
        }
        let latest = try store.latestRateSet()
        let item = try store.item(resource: RateSetRecord.resource, key: RatesSync.itemKey)
        let published = Published(latest.flatMap(RatesSnapshot.init))
        snapshot = published
        let sync = RatesSync(
            upstream: upstream, store: store, client: client, maxBytes: maxBytes, events: events, logger: logger)
        let reload = Reloader(store: store, logger: logger)
        refresher = Refresher(
            name: "rates", ttl: ttl, clock: clock, fetchedAt: latest == nil ? nil : item?.fetchedAt, logger: logger
        ) { now in
            let started = ContinuousClock.now
            let result = await sync.run(contactAt: now)
            events.refreshed("rates", duration: ContinuousClock.now - started)
            if case .success(let outcome) = result, outcome.changed, let fresh = reload.latest() {
                published.publish(fresh)
            }
            return result
        }
    }

    /// The newest day prepared for serving; nil while nothing is cached.
    var current: RatesSnapshot? { snapshot.current }

    /// The stored day `date` or the latest before it.
    func set(onOrBefore date: RateDate) throws(StoreError) -> (RateSet, storedAt: Date)? {
        guard let record = try store.rateSet(onOrBefore: date.description), let set = RateSet(record) else {
            return nil
        }
        return (set, record.storedAt)
    }
}

/// Reads the newest stored day after a commit.
private struct Reloader: Sendable {
    let store: Store
    let logger: Logger

    func latest() -> RatesSnapshot? {
        do {
            return try store.latestRateSet().flatMap(RatesSnapshot.init)
        } catch {
            logger.error("rates: cannot read the committed rates back: \(error)")
            return nil
        }
    }
}

extension RatesCache {
    /// What `/status` and `/ready` say about the rates: the newest day and how many are stored.
    public var summary: (latestDate: String?, days: Int) {
        (current?.set.date.description, (try? store.rateSetCount()) ?? 0)
    }

    /// True once a rate set is cached (readiness).
    public var hasData: Bool { current != nil }
}
