public import Foundation

/// Converts a stored set to another base and amount, in `Decimal`, rounding once at output.
///
/// The rule (README, openapi.yaml): a published rate is emitted with its published digits when no
/// arithmetic applies (the set's own base, amount 1). Any computed value, `amount × rate(X) / rate(base)`,
/// is computed at `Decimal`'s full precision (38 digits) and rounded once, half away from zero, to
/// 6 significant digits — but never inside the integer part, so large amounts keep every whole unit.
public enum CrossRates {
    /// One line of the answer: a code and the number's JSON text.
    public typealias Line = (code: String, number: String)

    /// The lines for `query` against `set`, sorted by code, the base itself left out.
    public static func lines(for set: RateSet, query: RatesQuery) throws(RatesQueryError) -> [Line] {
        let base = query.base ?? set.base
        guard set.rate(of: base) != nil else {
            throw .unknownCurrency("unknown currency '\(base)': the \(set.date) rates have no such currency")
        }
        for code in query.symbols ?? [] where set.rate(of: code) == nil {
            throw .unknownCurrency("unknown currency '\(code)': the \(set.date) rates have no such currency")
        }
        return lenientLines(for: set, query: query) ?? []
    }

    /// The lines of one day of a series: symbols that day lacks are left out, and nil when it lacks
    /// the base (currencies come and go over the ECB's history: CYP until 2007, ISK from 2018 again…).
    public static func lenientLines(for set: RateSet, query: RatesQuery) -> [Line]? {
        let base = query.base ?? set.base
        guard let baseRate = set.rate(of: base) else { return nil }
        let codes = query.symbols ?? (set.rates.map(\.code) + [set.base])
        let amount = query.amount ?? 1
        let published = base == set.base && amount == 1
        var lines: [Line] = []
        for code in Set(codes).sorted() where code != base {
            if published, let rate = set.rates.first(where: { $0.code == code }) {
                lines.append((code, rate.value.text))
                continue
            }
            guard let rate = set.rate(of: code) else { continue }
            lines.append((code, format(round(amount * rate / baseRate))))
        }
        return lines
    }

    /// Six significant digits, half away from zero, never rounding away integer digits.
    public static func round(_ value: Decimal) -> Decimal {
        guard value != 0 else { return 0 }
        var magnitude = value < 0 ? -value : value
        var exponent = 0
        while magnitude >= 10 { magnitude /= 10; exponent += 1 }
        while magnitude < 1 { magnitude *= 10; exponent -= 1 }
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, max(0, 5 - exponent), .plain)
        return rounded
    }

    /// Plain decimal notation for JSON (never an exponent).
    public static func format(_ value: Decimal) -> String {
        value.description
    }
}
