import Foundation
import LarderFreshness
import LarderRates
import LarderStore

/// Decides what a fetched payload changes in the store (SPEC §4.2–4.3): pure, so every rule is testable.
struct RatesMerge {
    /// The days to write, and whether the payload was refused as a regression.
    struct Plan: Equatable {
        var write: [RateSet] = []
        var regression: String?
    }

    /// `stored` holds the stored days among the payload's; `latest` is the newest stored day. A
    /// timestamp after `now` decides nothing (SPEC §4.11). With `revisions` (an answer to "what
    /// changed since", `RatesRequest.revisesPastDays`), a payload of past days only is no regression,
    /// and every day that differs from the stored copy is written: a revision of a published day
    /// keeps its date and timestamps, so only its digits tell it apart.
    static func plan(
        payload: ParsedRates, stored: [String: RateSetRecord], latest: RateSetRecord?, now: Date, revisions: Bool = false
    ) -> Plan {
        guard let newest = payload.latest else { return Plan() }
        if let latest, let latestDate = RateDate(latest.date) {
            // Never regress: a feed whose newest day is older than ours, or the same day published
            // earlier than our copy of it, replaces nothing.
            if newest.date < latestDate, !revisions {
                return Plan(regression: "the upstream's newest day \(newest.date) is older than the cached \(latestDate)")
            }
            if newest.date == latestDate,
               FreshnessRules.isRegression(
                   cached: Timestamps(latest).known(asOf: now), upstream: Timestamps(newest).known(asOf: now)) {
                return Plan(regression: "the upstream's \(newest.date) was updated before the cached copy")
            }
        }
        var plan = Plan()
        for set in payload.sets {
            guard let record = stored[set.date.description], let cached = RateSet(record) else {
                plan.write.append(set)
                continue
            }
            // Equal data is not rewritten; different data replaces the day only when the timestamp rule says stale.
            if cached.hasSameRates(as: set) { continue }
            if revisions {
                plan.write.append(set)
                continue
            }
            let (held, offered) = (Timestamps(record).known(asOf: now), Timestamps(set).known(asOf: now))
            if FreshnessRules.isStale(cached: held, upstream: offered),
               !FreshnessRules.isRegression(cached: held, upstream: offered) {
                plan.write.append(set)
            }
        }
        return plan
    }
}

extension Timestamps {
    init(_ record: RateSetRecord) {
        self.init(createdAt: record.createdAt, updatedAt: record.updatedAt)
    }

    init(_ set: RateSet) {
        self.init(createdAt: set.createdAt, updatedAt: set.updatedAt)
    }
}
