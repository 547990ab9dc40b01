import Foundation
import LarderFreshness
import LarderHTTP
import LarderRates
import LarderServing

/// Answers from the current rates snapshot, for every rates route (Larder's, v1's, v2's): at once
/// when something is cached, else after the first fetch (SPEC §4.5).
struct SnapshotServing: Sendable {
    let cache: any RatesSource
    // Read once, when the routes are made: a request then reads these as fields, not through the source.
    private let published: Published<RatesSnapshot>
    let refresher: Refresher<RatesRefreshOutcome>
    private let events: any CacheEvents
    private let today: BoundsClock
    /// Counts the hits the server's memo answers; nil when answers may not be repeated from it: on an
    /// injected clock, whose seconds are not the ones the memo reads (CLOCK_REALTIME).
    private let memoHit: (any AnswerMemoHit)?

    init(cache: any RatesSource) {
        self.cache = cache
        published = cache.published
        refresher = cache.refresher
        events = cache.events
        today = cache.today
        memoHit = cache.refresher.clock is SystemClock ? cache.events.freshHit(.rates) : nil
    }

    /// The cached data and its state, with the hit counted and a due background refresh started;
    /// nil when nothing is cached. (Not a closure taking the answer: the hot path allocates nothing here.)
    /// A fresh copy's answers may be repeated by the server's memo until its second or its freshness
    /// ends: every change to the copy or its refresh state is counted by `published.changes`.
    func cached() -> (RatesSnapshot, CacheState)? {
        let generation = memoHit != nil ? published.changes.current : 0  // before what the answer is made from
        guard let snapshot = published.current else { return nil }
        let freshness = refresher.freshness()
        refresher.refreshIfDue(freshness)
        events.hit(.rates, stale: freshness.isExpired)
        var state = CacheState(freshness, fallback: snapshot.storedAt)
        if let memoHit, !freshness.isExpired {
            state.memo = MemoPermit(changes: published.changes, generation: generation, hit: memoHit)
        }
        return (snapshot, state)
    }

    /// With nothing cached: waits for the fetch in flight, then answers (SPEC §4.5).
    func whenFetched(_ answer: @escaping @Sendable (RatesSnapshot, CacheState) -> Response) -> Handler.Answer {
        events.miss(.rates)
        return .later { _ in
            // The first fetch may have landed since the check above: then no second fetch.
            if let snapshot = published.current {
                return answer(snapshot, state(for: snapshot))
            }
            if let refusal = ColdCache.refusalWhileBackingOff(refresher, what: "rates") {
                return refusal.response
            }
            // Start a fetch only if none landed meanwhile (checked atomically with joining one).
            let result = await refresher.refresh(waitingAtMost: cache.coldWait) { published.current == nil }
            if let snapshot = published.current {
                return answer(snapshot, state(for: snapshot))
            }
            return ColdCache.unavailable(result, what: "rates").response
        }
    }

    /// Either of the above: the answer now when cached, later otherwise.
    func answer(_ answer: @escaping @Sendable (RatesSnapshot, CacheState) -> Response) -> Handler.Answer {
        if let (snapshot, state) = cached() { return .now(answer(snapshot, state)) }
        return whenFetched(answer)
    }

    /// The day the lookbacks run from for `state` (SPEC §4.11, §4.13): a clock set back does not hide the data.
    func day(_ state: CacheState) -> ServingDay {
        ServingDay(state, later: today.later(than:))
    }

    func state(for snapshot: RatesSnapshot) -> CacheState {
        CacheState(refresher.freshness(), fallback: snapshot.storedAt)
    }
}
