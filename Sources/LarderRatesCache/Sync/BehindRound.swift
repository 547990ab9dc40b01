import LarderFreshness
import LarderRates

/// One refresh's judgement of lagging upstreams (SPEC §4.12): an answer that leaves the newest stored
/// day older than the day due is taken (its days are valid, and committed) but its upstream is behind,
/// and the next is asked. Every answer taken in the round is folded into one, so the newest valid data
/// wins across the list (each attempt merges against what the one before committed) and the served
/// snapshot takes in every day written.
struct BehindRound {
    /// The day due at the refresh's contact; nil: every answer is up to date.
    let due: RateDate?
    private var taken: RatesSync.Applied?

    init(due: RateDate?) {
        self.due = due
    }

    /// The failover's answer for `applied`, the delivery of the upstream whose health is `health`.
    mutating func answer(_ applied: RatesSync.Applied, health: UpstreamHealth) -> UpstreamFailover.Answer<RatesSync.Applied> {
        let folded = taken.map { $0.followed(by: applied) } ?? applied
        taken = folded
        // The newest day stored after its answer is the newest it holds: older would have been refused.
        if let newest = applied.outcome.date { health.holds(newestDay: newest.description) }
        if let due, applied.outcome.date.map({ $0 < due }) ?? true {
            return .behind(folded, served: applied.served)
        }
        return .delivered(folded, served: applied.served)
    }
}

extension RatesSync.Applied {
    /// This delivery followed by a later upstream's in the same refresh: the later one's outcome, format
    /// and source, with every day either wrote (the later copy of a day both wrote).
    func followed(by later: Self) -> Self {
        var folded = later
        let laterDays = Set(later.written.map(\.date))
        folded.written = written.filter { !laterDays.contains($0.date) } + later.written
        folded.replacedAll = replacedAll || later.replacedAll
        folded.format = later.format ?? format
        folded.outcome = RatesRefreshOutcome(
            kind: outcome.kind == .updated ? .updated : later.outcome.kind,
            daysChanged: outcome.daysChanged + later.outcome.daysChanged, date: later.outcome.date ?? outcome.date)
        return folded
    }
}
