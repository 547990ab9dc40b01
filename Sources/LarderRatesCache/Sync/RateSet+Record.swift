import Foundation
import LarderRates
import LarderStore

extension RateSetRecord {
    /// The stored form of a parsed set.
    init(_ set: RateSet, storedAt: Date) {
        self.init(
            date: set.date.description, base: set.base, createdAt: set.createdAt, updatedAt: set.updatedAt,
            storedAt: storedAt,
            rates: set.rates.map { Rate(code: $0.code, name: $0.name, value: $0.value.text) },
            ratesJSON: RatesObjectReader.object(for: set))
    }
}

extension RateSet {
    /// The domain form of a stored set; nil when the row no longer reads as valid (never served then).
    init?(_ record: RateSetRecord) {
        guard let date = RateDate(record.date) else { return nil }
        var rates: [CurrencyRate] = []
        for rate in record.rates {
            guard let value = PublishedDecimal(rate.value), CurrencyRate.isValidCode(rate.code) else { return nil }
            rates.append(CurrencyRate(code: rate.code, name: rate.name, value: value))
        }
        self.init(date: date, base: record.base, rates: rates, createdAt: record.createdAt, updatedAt: record.updatedAt)
    }
}
