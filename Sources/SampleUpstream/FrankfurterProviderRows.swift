import LarderRates

/// One provider's rows of the Frankfurter set, indexed so that a window of one base answers from the
/// rows of that window alone: a full-size set (84 providers, millions of rows) is asked thousands of
/// single-provider windows by one mirror's first sync, which the bench times as Larder's, not ours.
struct ProviderRows: Sendable {
    typealias Row = FrankfurterSet.Row

    /// Stored rows by their base, each ascending by date then quote.
    let byBase: [String: [Row]]
    /// Stored rows by their quote, each ascending by date then base.
    let byQuote: [String: [Row]]
    /// The first and last day of any row.
    let first: RateDate
    let last: RateDate
    /// Every code of the rows (bases and quotes), each with its first and last day here.
    let spans: [String: (first: RateDate, last: RateDate)]

    /// Indexes `rows` (at least one, all of one provider).
    init(_ rows: [Row]) {
        var byBase: [String: [Row]] = [:]
        var byQuote: [String: [Row]] = [:]
        for row in rows {
            byBase[row.base, default: []].append(row)
            byQuote[row.quote, default: []].append(row)
        }
        // Sorted input (as the generators write it) stays as it is: the sort is then linear.
        for key in byBase.keys { byBase[key]!.sort { ($0.date, $0.quote) < ($1.date, $1.quote) } }
        for key in byQuote.keys { byQuote[key]!.sort { ($0.date, $0.base) < ($1.date, $1.base) } }
        var spans: [String: (first: RateDate, last: RateDate)] = [:]
        for group in [byBase, byQuote] {
            for (code, rows) in group {
                let span = spans[code] ?? (rows[0].date, rows[rows.count - 1].date)
                spans[code] = (min(span.first, rows[0].date), max(span.last, rows[rows.count - 1].date))
            }
        }
        self.byBase = byBase
        self.byQuote = byQuote
        self.spans = spans
        first = spans.values.map(\.first).min() ?? .firstDay
        last = spans.values.map(\.last).max() ?? .firstDay
    }

    /// The codes of the rows, sorted.
    var codes: [String] { spans.keys.sorted() }

    /// The rows in `base` dated `from` through `to`: stored ones with their digits, and a row stored
    /// the other way round inverted and rounded as Frankfurter derives it (no longer the published
    /// digits), unless the same day has the pair stored in `base`.
    func rows(base: String, from: RateDate, to: RateDate) -> [Row] {
        let direct = Self.window(byBase[base] ?? [], from: from, to: to)
        struct Held: Hashable {
            let date: RateDate
            let code: String
        }
        let held = Set(direct.map { Held(date: $0.date, code: $0.quote) })
        let inverted = Self.window(byQuote[base] ?? [], from: from, to: to).compactMap { row -> Row? in
            guard !held.contains(Held(date: row.date, code: row.base)), let value = Double(row.rate), value > 0 else { return nil }
            return Row(provider: row.provider, date: row.date, base: base, quote: row.base, rate: FrankfurterRounding.roundedText(1 / value))
        }
        return Array(direct) + inverted
    }

    /// The part of `rows` (ascending by date) dated `from` through `to`, found by bisection.
    private static func window(_ rows: [Row], from: RateDate, to: RateDate) -> ArraySlice<Row> {
        func start(_ day: RateDate, after: Bool) -> Int {
            var low = 0, high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if rows[middle].date < day || (after && rows[middle].date == day) { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let lower = start(from, after: false)
        return rows[lower..<max(lower, start(to, after: true))]
    }
}
