import Foundation
import LarderFormats

/// The JSON rates shapes of SPEC §5, read by one set of rules:
/// - Frankfurter `{"amount":1,"base":"EUR","date":"2026-11-20","rates":{…}}`: the date is `date`;
///   there is no updated_at unless the body gives `updated_at` (a business date is not an instant).
/// - Open Exchange Rates `{"timestamp":1318321664,"base":"USD","rates":{…}}`: the date is the UTC day
///   of `timestamp` and updated_at is that instant. When both `date` and `timestamp` appear, `date` wins.
/// - `created_at`/`updated_at`, RFC 3339 strings, are honoured when present (`null` counts as absent)
///   and take precedence over `timestamp`.
/// - Each rate is a JSON number literal in plain positive decimal notation, kept digit for digit.
///   Exponent forms such as `1e-5` are refused: no known feed uses them and their published digits
///   are ambiguous. Strings, null, negative and zero rates are refused too.
/// - `amount`, when present, must be 1; other top-level keys (`disclaimer`, `license`) are ignored.
enum JSONRatesParser {
    /// 9999-12-31T23:59:59Z, the last instant a `RateDate` can name.
    static let latestTimestamp = 253_402_300_799

    /// One set, or the reason the whole body is refused.
    static func parse(_ body: [UInt8]) throws(RatesFormatError) -> [RateSet] {
        let document: JSONValue
        do {
            document = try JSONReader.read(body)
        } catch {
            throw RatesFormatError("json: \(error.message)")
        }
        guard case .object(let fields) = document else {
            throw fail("the body is \(document.kind), not an object")
        }
        guard case .string(let base)? = fields["base"] else {
            throw fail(fields["base"].map { "\"base\" is \($0.kind), not a string" } ?? "no \"base\"")
        }
        guard CurrencyRate.isValidCode(base) else {
            throw fail("base '\(ByteText.excerpt(base))' is not three uppercase letters")
        }
        try checkAmount(fields["amount"])
        let timestamp = try timestamp(fields["timestamp"])
        let createdAt = try instant(fields["created_at"], key: "created_at")
        let updatedAt = try instant(fields["updated_at"], key: "updated_at") ?? timestamp
        guard let date = try date(fields["date"]) ?? timestamp.map(RateDate.init(containing:)) else {
            throw fail("neither \"date\" nor \"timestamp\" dates the rates")
        }
        guard case .object(let rates)? = fields["rates"] else {
            throw fail(fields["rates"].map { "\"rates\" is \($0.kind), not an object" } ?? "no \"rates\"")
        }
        var collector = RateCollector(format: "json", context: "\"rates\"")
        // Sorted so that, of several problems, the same one is always reported.
        for (code, value) in rates.sorted(by: { $0.key < $1.key }) {
            guard case .number(let literal) = value else {
                throw collector.fail("rate for '\(ByteText.excerpt(code))' is \(value.kind), not a number")
            }
            try collector.add(code: code, rate: literal)
        }
        return [try collector.rateSet(date: date, base: base, createdAt: createdAt, updatedAt: updatedAt)]
    }

    /// Frankfurter's `amount` scales every rate; only 1 means the rates are per unit of the base.
    static func checkAmount(_ value: JSONValue?) throws(RatesFormatError) {
        guard let value else { return }
        guard case .number(let literal) = value,
              let amount = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX")), amount == 1 else {
            throw fail("\"amount\" must be 1")
        }
    }

    /// Whole seconds since 1970 as a plain non-negative integer literal.
    private static func timestamp(_ value: JSONValue?) throws(RatesFormatError) -> Date? {
        guard let value else { return nil }
        guard case .number(let literal) = value, literal.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let seconds = Int(literal), seconds <= latestTimestamp else {
            throw fail("\"timestamp\" is not whole seconds since 1970")
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func instant(_ value: JSONValue?, key: String) throws(RatesFormatError) -> Date? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let text)?:
            guard let instant = RFC3339.instant(text) else {
                throw fail("\"\(key)\" '\(ByteText.excerpt(text))' is not an RFC 3339 timestamp")
            }
            return instant
        case let other?:
            throw fail("\"\(key)\" is \(other.kind), not a string")
        }
    }

    private static func date(_ value: JSONValue?) throws(RatesFormatError) -> RateDate? {
        guard let value else { return nil }
        guard case .string(let text) = value, let date = RateDate(text) else {
            throw fail("\"date\" is not a valid YYYY-MM-DD date")
        }
        return date
    }

    private static func fail(_ problem: String) -> RatesFormatError {
        RatesFormatError("json: \(problem)")
    }
}
