import Foundation
import LarderFormats
import LarderRates

extension FuzzTarget {
    /// A rates body in one format: what is accepted is a sorted list of days, each with a valid base
    /// and positive rates under valid, distinct codes; and each day's JSON as Larder serves it reads
    /// back, through the JSON reader, as the same day.
    static func ratesTarget(_ name: String, format: RatesFormat) -> FuzzTarget {
        FuzzTarget(name) { input throws(PropertyViolation) in
            let fetchedAt = Date(timeIntervalSince1970: 1_763_640_000)
            guard let parsed = try? RatesParser.parse(input, format: format, fetchedAt: fetchedAt) else { return }
            try expect(!parsed.sets.isEmpty, "accepted with no rate set")
            try expect(zip(parsed.sets, parsed.sets.dropFirst()).allSatisfy { $0.date < $1.date }, "days out of order or repeated")
            for set in parsed.sets {
                try checkRateSet(set)
            }
        }
    }

    /// One day's rates keep their promises and survive Larder's own JSON.
    static func checkRateSet(_ set: RateSet) throws(PropertyViolation) {
        try expect(CurrencyRate.isValidCode(set.base), "base \(set.base.debugDescription)")
        try expect(!set.rates.isEmpty, "\(set.date): no rates")
        var seen: Set<String> = [set.base]
        for rate in set.rates {
            try expect(CurrencyRate.isValidCode(rate.code) && seen.insert(rate.code).inserted,
                       "\(set.date): code \(rate.code.debugDescription) invalid, the base, or repeated")
            try expect(rate.value.value > 0 && PublishedDecimal(rate.value.text) == rate.value,
                       "\(set.date): \(rate.code) \(rate.value.text.debugDescription) is not a positive published number")
        }
        let json = RatesJSON.rates(for: set)
        guard let again = try? RatesParser.parse(json, format: .json, fetchedAt: Date()).sets, again.count == 1 else {
            throw PropertyViolation(message: "\(set.date): its JSON does not read back: \(String(decoding: json, as: UTF8.self))")
        }
        let back = again[0]
        try expect(back.date == set.date && back.base == set.base, "\(set.date): reads back as \(back.date) \(back.base)")
        try expect(back.rates.map { [$0.code, $0.value.text] }.sorted { $0[0] < $1[0] }
                       == set.rates.map { [$0.code, $0.value.text] }.sorted { $0[0] < $1[0] },
                   "\(set.date): the rates read back differently")
    }
}
