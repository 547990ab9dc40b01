import Foundation
import LarderHTTP
import LarderRates
import LarderServing
import LarderStore
import Synchronization

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

    /// Converted answers of this day (`?base=…&symbols=…`) by their query, kept until the day is
    /// replaced; bounded, so a client inventing queries costs rendering time, not memory.
    private let conversions = Mutex<[String: PreparedAnswer]>([:])
    static let conversionLimit = 256

    /// The conversion prepared for this query key, if any.
    func conversion(_ key: String) -> PreparedAnswer? {
        conversions.withLock { $0[key] }
    }

    /// Keeps `answer` for `key` while there is room (the first one kept wins a race); returns the one kept.
    func keep(_ key: String, _ answer: PreparedAnswer) -> PreparedAnswer {
        conversions.withLock { kept in
            if let first = kept[key] { return first }
            if kept.count < Self.conversionLimit { kept[key] = answer }
            return answer
        }
    }

    /// The decoded query items as one string: equal items give equal answers. The separators are
    /// control characters, which decoded names and values never hold, so no two queries share a key.
    static func conversionKey(_ query: QueryItems) -> String {
        var key = ""
        for item in query {
            key += item.name
            key += "\u{1}"
            key += item.value
            key += "\u{2}"
        }
        return key
    }

    convenience init?(_ record: RateSetRecord) {
        guard let set = RateSet(record) else { return nil }
        self.init(set, storedAt: record.storedAt)
    }
}
