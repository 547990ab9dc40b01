import Foundation
import LarderRates

/// The majority rule of the rates cross-check for one currency (SPEC §4.12): pure, so every case is testable.
///
/// Values compare as numbers of the published digits (`1.0820` equals `1.082`). Index 0 is the
/// served upstream. A value wins only with a strict majority of the upstreams that published the
/// currency; with none (two upstreams split, or a three-way split) the served value stays.
struct CrossCheckVote: Equatable {
    /// The value to keep (the served one unless a majority outvoted it).
    let kept: PublishedDecimal
    /// Whether a strict majority decided.
    let decided: Bool
    /// The indices whose value is not the kept one's when a majority decided; empty otherwise.
    let odd: [Int]

    /// Whether the served value lost to a majority, so the stored day is to be rewritten.
    var servedLost: Bool { decided && odd.contains(0) }

    /// The vote over `values` (index 0 served; nil: that upstream has no such currency); nil when
    /// every published value agrees.
    static func decide(_ values: [PublishedDecimal?]) -> CrossCheckVote? {
        let published = values.enumerated().compactMap { index, value in value.map { (index, $0) } }
        guard let served = values.first ?? nil,
              published.contains(where: { $0.1.value != served.value }) else { return nil }
        // Groups of equal values, in order of first appearance (the served one first).
        var groups: [(value: PublishedDecimal, members: [Int])] = []
        for (index, value) in published {
            if let group = groups.firstIndex(where: { $0.value.value == value.value }) {
                groups[group].members.append(index)
            } else {
                groups.append((value, [index]))
            }
        }
        guard let winner = groups.first(where: { $0.members.count * 2 > published.count }) else {
            return CrossCheckVote(kept: served, decided: false, odd: [])
        }
        let odd = published.map(\.0).filter { !winner.members.contains($0) }
        return CrossCheckVote(kept: winner.members.contains(0) ? served : winner.value, decided: true, odd: odd)
    }
}
