import Foundation
import LarderRates

/// One other upstream's answer for the day being checked.
enum CrossCheckAnswer: Sendable {
    case day(RateSet)
    /// Why there is no day to compare (an error, a refused payload, the day absent).
    case unavailable(String)
    /// Its answer ends before the day: its newest day is `newest` (SPEC §4.12: it is behind).
    case behind(newest: RateDate)
}

/// The served day and the other upstreams' answers, voted currency by currency: pure, so the
/// report and the rewrite follow from the answers alone.
struct CrossCheckFindings {
    let served: (label: String, format: String, day: RateSet)
    let others: [(label: String, format: String, answer: CrossCheckAnswer)]
    /// Per disagreeing currency (in code order): the vote, the values of the upstreams that published
    /// it, and the outvoted upstreams.
    let votes: [(code: String, vote: CrossCheckVote, values: [(label: String, value: PublishedDecimal)], odd: [String])]

    init(served: (label: String, format: String, day: RateSet), others: [(label: String, format: String, answer: CrossCheckAnswer)]) {
        self.served = served
        self.others = others
        let answered: [(label: String, rates: [String: PublishedDecimal])] = others.compactMap { other in
            guard case .day(let set) = other.answer else { return nil }
            return (other.label, Dictionary(set.rates.map { ($0.code, $0.value) }, uniquingKeysWith: { first, _ in first }))
        }
        votes = served.day.rates.compactMap { rate in
            let values: [PublishedDecimal?] = [rate.value] + answered.map { $0.rates[rate.code] }
            guard let vote = CrossCheckVote.decide(values) else { return nil }
            let labels = [served.label] + answered.map(\.label)
            let named = zip(labels, values).compactMap { label, value in value.map { (label, $0) } }
            return (rate.code, vote, named, vote.odd.map { labels[$0] })
        }
    }

    /// The served day with every value a majority outvoted replaced; nil when none was.
    var corrected: RateSet? {
        let replaced = Dictionary(votes.filter(\.vote.servedLost).map { ($0.code, $0.vote.kept) }, uniquingKeysWith: { first, _ in first })
        guard !replaced.isEmpty else { return nil }
        let day = served.day
        return RateSet(
            date: day.date, base: day.base,
            rates: day.rates.map { CurrencyRate(code: $0.code, name: $0.name, value: replaced[$0.code] ?? $0.value) },
            createdAt: day.createdAt, updatedAt: day.updatedAt)
    }

    func report(date: RateDate, checkedAt: Date, rewritten: Bool) -> CrossCheckReport {
        let servedValues = Dictionary(served.day.rates.map { ($0.code, $0.value.value) }, uniquingKeysWith: { first, _ in first })
        var asked = [CrossCheckReport.Asked(label: served.label, format: served.format, outcome: .served, error: nil)]
        for other in others {
            switch other.answer {
            case .unavailable(let message):
                asked.append(.init(label: other.label, format: other.format, outcome: .unavailable, error: message))
            case .behind(let newest):
                asked.append(.init(
                    label: other.label, format: other.format, outcome: .behind,
                    error: "its newest day is \(newest), older than \(date)", newestDay: newest.description))
            case .day(let set):
                let differs = set.rates.contains { rate in servedValues[rate.code].map { $0 != rate.value.value } ?? false }
                asked.append(.init(label: other.label, format: other.format, outcome: differs ? .disagreed : .agreed, error: nil))
            }
        }
        let disagreements = votes.map { entry in
            CrossCheckReport.Disagreement(
                currency: entry.code, values: entry.values.map { ($0.label, $0.value.text) }, kept: entry.vote.kept.text,
                odd: entry.odd)
        }
        let outcome: CrossCheckReport.Outcome = asked.dropFirst().allSatisfy { [.unavailable, .behind].contains($0.outcome) }
            ? .unavailable
            : disagreements.isEmpty ? .agreed : .disagreed
        return CrossCheckReport(
            date: date.description, checkedAt: checkedAt, outcome: outcome, upstreams: asked,
            disagreements: disagreements, rewritten: rewritten)
    }
}
