import LarderFormats

/// A Frankfurter v1 answer (from Frankfurter or another Larder): a time series
/// `{"amount":1,"base":"EUR","start_date":"…","end_date":"…","rates":{"YYYY-MM-DD":{"USD":1.08,…},…}}`,
/// or one day `{"amount":1,"base":"EUR","date":"…","rates":{"USD":1.08,…}}`. The base is the
/// payload's; rates are read by `RateCollector`'s rules (published digits kept, no exponent). A
/// series' days must lie between its `start_date` and `end_date`. The answers carry no
/// timestamps, so the sets have none. A series with no day holds nothing new.
enum FrankfurterParser {
    /// The days of the body, oldest first, or the reason the whole body is refused.
    static func parse(_ body: [UInt8]) throws(RatesFormatError) -> [RateSet] {
        let document: JSONValue
        do {
            document = try JSONReader.read(body)
        } catch {
            throw fail(error.message)
        }
        guard case .object(let fields) = document else { throw fail("the body is \(document.kind), not an object") }
        guard case .string(let base)? = fields["base"] else {
            throw fail(fields["base"].map { "\"base\" is \($0.kind), not a string" } ?? "no \"base\"")
        }
        guard CurrencyRate.isValidCode(base) else {
            throw fail("base '\(ByteText.excerpt(base))' is not three uppercase letters")
        }
        do {
            try JSONRatesParser.checkAmount(fields["amount"])
        } catch {
            throw fail("\"amount\" must be 1")
        }
        guard case .object(let rates)? = fields["rates"] else {
            throw fail(fields["rates"].map { "\"rates\" is \($0.kind), not an object" } ?? "no \"rates\"")
        }
        if fields["start_date"] != nil || fields["end_date"] != nil {
            let (start, end) = (try date(fields["start_date"], key: "start_date"), try date(fields["end_date"], key: "end_date"))
            guard start <= end else { throw fail("start_date \(start) is after end_date \(end)") }
            let range = start...end
            var sets: [RateSet] = []
            for (key, day) in rates.sorted(by: { $0.key < $1.key }) {
                guard let date = RateDate(key) else {
                    throw fail("\"rates\" key '\(ByteText.excerpt(key))' is not a YYYY-MM-DD day")
                }
                guard range.contains(date) else { throw fail("the day \(date) is outside start_date..end_date") }
                guard case .object(let dayRates) = day else { throw fail("\(date) is \(day.kind), not an object") }
                sets.append(try rateSet(dayRates, date: date, base: base))
            }
            return sets
        }
        guard fields["date"] != nil else { throw fail("neither \"start_date\" nor \"date\" dates the rates") }
        return [try rateSet(rates, date: date(fields["date"], key: "date"), base: base)]
    }

    private static func rateSet(_ rates: [String: JSONValue], date: RateDate, base: String) throws(RatesFormatError) -> RateSet {
        var collector = RateCollector(format: "frankfurter", context: date.description)
        // Sorted so that, of several problems, the same one is always reported.
        for (code, value) in rates.sorted(by: { $0.key < $1.key }) {
            guard case .number(let literal) = value else {
                throw collector.fail("rate for '\(ByteText.excerpt(code))' is \(value.kind), not a number")
            }
            try collector.add(code: code, rate: literal)
        }
        return try collector.rateSet(date: date, base: base)
    }

    private static func date(_ value: JSONValue?, key: String) throws(RatesFormatError) -> RateDate {
        guard case .string(let text)? = value, let date = RateDate(text) else {
            throw fail("\"\(key)\" is not a valid YYYY-MM-DD date")
        }
        return date
    }

    private static func fail(_ problem: String) -> RatesFormatError {
        RatesFormatError("frankfurter: \(problem)")
    }
}
