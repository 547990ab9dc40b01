import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderServing
import LarderStore
import LarderUpstream
import Logging

/// One refresh of the rates (SPEC §4.12): the upstreams asked in order of health, each at most once,
/// until one delivers; each delivery is a conditional GET, parse, merge, and one committed transaction.
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
        /// What the upstream served, for `/status` (e.g. `2026-11-27 (1 day)`).
        var served: String?
        /// The index in the list of the upstream that delivered (the cross-check asks the others).
        var servedBy = 0
        /// A Frankfurter v2 mirror refreshed: its rows are read again for v2.
        var mirrored = false
    }

    let upstreams: RatesUpstreams
    /// What the store records as the resource's source: the list as a set (SPEC §4.9).
    let identity: String
    let store: Store
    let client: any UpstreamTransport
    let maxBytes: Int
    /// What "today" is for the bounds of a payload and of the stored days (SPEC §4.11).
    let today: BoundsClock
    /// Pending while the stored days came from a previous upstream list (SPEC §4.9).
    let upstreamSwitch: UpstreamSwitch
    let events: any CacheEvents
    let logger: Logger
    /// How far a Frankfurter v2 mirror's sync is (`/status`).
    let mirrorProgress: FrankfurterMirrorProgress
    /// Which day the schedule says is due: an upstream lacking it is behind (SPEC §4.12); nil: none is.
    var due: (any PublicationDue)? = nil
    /// `--rates-schedule follow`'s schedule, told each answer's freshness, as the documents' sync tells theirs; nil under the others.
    var follow: FollowSchedule? = nil

    /// Asks the upstreams in order of health until one delivers (`UpstreamFailover`, the documents' rule too).
    func run(contactAt now: Date) async -> Result<Applied, RefreshError> {
        let order = upstreams.pool.order(at: now)
        let failover = UpstreamFailover(resource: "rates", logger: logger)
        var round = BehindRound(due: due?.dueDay(at: now))
        let outcome: UpstreamFailover.Outcome<Applied> = await failover.ask(upstreams.pool.candidates(order), at: now) {
            position throws(RefreshError) in
            let index = order[position]
            do {
                var applied = try await attempt(index).run(now)
                applied.servedBy = index
                // Its validators are stored now: the next asked in this round must not send them as its own.
                upstreams.tookValidators(from: index)
                return round.answer(applied, health: upstreams.health[index])
            } catch {
                throw (error as? RefreshError) ?? RefreshError(.store, "\(error)")
            }
        }
        switch outcome {
        case .delivered(let applied, _):
            return .success(applied)
        case .declined:
            return .failure(RefreshError(.invalidPayload, "no upstream delivered"))
        case .failed(let error):
            return .failure(error)
        }
    }

    private func attempt(_ index: Int) -> RatesUpstreamAttempt {
        RatesUpstreamAttempt(
            sync: self, index: index, upstream: upstreams.list[index], label: upstreams.labels[index],
            ownsValidators: upstreams.ownsValidators(index))
    }
}

extension StoreError {
    /// A store failure as a refresh failure.
    var refreshError: RefreshError { RefreshError(.store, message) }
}
