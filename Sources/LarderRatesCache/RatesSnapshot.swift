import Foundation
import LarderRates
import LarderServing
import LarderStore

/// The newest stored day, rendered once when it changes and shared by every request until the next change.
final class RatesSnapshot: Sendable {
    let set: RateSet
    /// The default `/rates` answer, and `/rates/{latest date}`'s.
    let latest: PreparedAnswer
    let currencies: PreparedAnswer
    let storedAt: Date

    init(_ set: RateSet, storedAt: Date) {
        self.set = set
        self.storedAt = storedAt
        latest = PreparedAnswer(Representation(bytes: RatesJSON.rates(for: set), lastModified: storedAt))
        currencies = PreparedAnswer(Representation(bytes: RatesJSON.currencies(for: set), lastModified: storedAt))
    }

    convenience init?(_ record: RateSetRecord) {
        guard let set = RateSet(record) else { return nil }
        self.init(set, storedAt: record.storedAt)
    }
}
