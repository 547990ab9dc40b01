import LarderRates

/// The first and last stored day of every currency in the history, as a base or a quote: what
/// Frankfurter v2 answers as a currency's `start_date` and `end_date`. Read once per snapshot, from
/// the stored objects' keys, without reading their rates.
struct CurrencyCoverage: Sendable {
    /// The days a currency is quoted on, first and last.
    struct Span: Sendable, Equatable {
        var first: RateDate
        var last: RateDate
    }

    private(set) var spans: [String: Span] = [:]

    /// Spans already read (a mirror's, from `ProviderCoverage`).
    init(spans: [String: Span]) {
        self.spans = spans
    }

    init(_ history: RatesHistory) {
        for index in 0..<history.count {
            let day = history.days[index]
            note(day.base, day.date)
            Self.forEachCode(in: history.object(at: index)) { note($0, day.date) }
        }
    }

    /// Every currency, sorted by code.
    var codes: [String] { spans.keys.sorted() }

    var first: RateDate? { spans.values.map(\.first).min() }
    var last: RateDate? { spans.values.map(\.last).max() }

    private mutating func note(_ code: String, _ date: RateDate) {
        if var span = spans[code] {
            span.first = min(span.first, date)
            span.last = max(span.last, date)
            spans[code] = span
        } else {
            spans[code] = Span(first: date, last: date)
        }
    }

    /// The codes of a stored object (`{"AUD":1.6,"BGN":1.9558}`: Larder wrote it, so every member is
    /// a three-letter code, a colon and a number); stops at anything else.
    static func forEachCode(in object: ArraySlice<UInt8>, _ body: (String) -> Void) {
        var index = object.startIndex + 1
        while index + 5 <= object.endIndex, object[index] == UInt8(ascii: "\""), object[index + 4] == UInt8(ascii: "\"") {
            body(String(decoding: object[index + 1..<index + 4], as: UTF8.self))
            index += 5
            while index < object.endIndex, object[index] != UInt8(ascii: ",") { index += 1 }
            index += 1
        }
    }
}
