import Foundation
import LarderRates
import Logging

/// The rate days a mirror derives from the `ECB` provider's rows, written with the digits the upstream's
/// v1 publishes: a Larder parent's v1 keeps the ECB's own text (`385.50`), which its v2 rows, JSON numbers,
/// cannot carry (`385.5`). So a replica's `/rates` and v1 answers, and their ETags, are its parent's byte for
/// byte (SPEC §4.14). The rows stay the source: a v1 day is taken only where its values equal the derived
/// day's as numbers; without a v1 (Frankfurter's sample upstream) or on any failure, the days stay as derived.
struct FrankfurterPublishedDigits {
    let attempt: FrankfurterMirrorAttempt

    /// `days` (ascending) with v1's digits where they are the same numbers; one request, from the first day.
    func applied(to days: [RateSet], now: Date) async -> [RateSet] {
        guard let first = days.first?.date else { return days }
        let published: [RateDate: RateSet]
        do {
            let body = try await attempt.get("v1/\(first)..")
            let sets = try RatesParser.parse(body, format: .frankfurter, fetchedAt: now, allowingNoDays: true).sets
            published = Dictionary(sets.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            attempt.sync.logger.debug("rates: \(attempt.label)'s v1 digits not taken: \(error)")
            return days
        }
        return days.map { day in
            guard let text = published[day.date], Self.sameNumbers(day, text) else { return day }
            return RateSet(date: day.date, base: day.base, rates: text.rates, createdAt: day.createdAt, updatedAt: day.updatedAt)
        }
    }

    /// The same base, currencies and values as numbers.
    static func sameNumbers(_ derived: RateSet, _ text: RateSet) -> Bool {
        derived.base == text.base && derived.rates.count == text.rates.count
            && zip(derived.rates, text.rates).allSatisfy { $0.code == $1.code && $0.value.value == $1.value.value }
    }
}
