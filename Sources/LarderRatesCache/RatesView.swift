public import Foundation
public import LarderRates
import LarderRatesAPI

/// The stored rates as a page shows them — the newest day with the feed's names, the change against
/// the stored day before it, one currency over the whole history — in any base the newest day has.
///
/// Holds one snapshot, so it never changes under its reader. Every number is the one Larder's own
/// routes answer: `/rates?base=`, `/rates/{date}?base=`, `/rates/{first}..?symbols=&base=`.
public struct RatesView: Sendable {
    /// One currency of the newest day against the chosen base.
    public struct Row: Sendable, Equatable {
        public let code: String
        /// The rate as `/rates?base=` writes it (published digits, or 6 significant digits when converted).
        public let text: String
        public let value: Decimal
        /// The same rate on the stored day before; nil when there is none or it lacks either currency.
        public let previous: Decimal?
    }

    /// One stored day of a currency's history.
    public struct Point: Sendable, Equatable {
        public let date: RateDate
        public let text: String
        public let value: Decimal
    }

    let snapshot: RatesSnapshot

    init(_ snapshot: RatesSnapshot) {
        self.snapshot = snapshot
    }

    /// The newest stored day.
    public var date: RateDate { snapshot.set.date }
    /// The base the feed publishes the newest day in.
    public var base: String { snapshot.set.base }
    /// The stored day before the newest, which the table's change is measured against.
    public var previousDate: RateDate? {
        let days = snapshot.history.days
        return days.count >= 2 ? days[days.count - 2].date : nil
    }

    /// Every currency of the newest day, the base included, sorted by code.
    public var codes: [String] { ([base] + snapshot.set.rates.map(\.code)).sorted() }

    /// The feed's name for `code` on the newest day, where it gives one.
    public func name(of code: String) -> String? {
        snapshot.set.rates.first { $0.code == code }?.name
    }

    /// Changes with every change of the stored rates (and only then): equal revisions, equal views.
    public var revision: Int { snapshot.generation }

    /// The newest day against `base` (every other currency, by code), with the day before's rates;
    /// nil when the newest day lacks `base`.
    public func table(base: String) -> [Row]? {
        let query = RatesQuery(base: base)
        guard let lines = CrossRates.lenientLines(for: snapshot.set, query: query) else { return nil }
        var previous: [String: Decimal] = [:]
        let history = snapshot.history
        if history.count >= 2, let set = history.set(at: history.count - 2),
           let earlier = CrossRates.lenientLines(for: set, query: query) {
            for line in earlier { previous[line.code] = Self.decimal(line.number) }
        }
        return lines.compactMap { line in
            Self.decimal(line.number).map {
                Row(code: line.code, text: line.number, value: $0, previous: previous[line.code])
            }
        }
    }

    /// `code` against `base` on every stored day that has both, oldest first.
    public func series(of code: String, base: String) -> [Point] {
        let query = RatesQuery(base: base, symbols: [code])
        let history = snapshot.history
        var points: [Point] = []
        points.reserveCapacity(history.count)
        for index in 0..<history.count {
            guard let set = history.set(at: index), let line = CrossRates.lenientLines(for: set, query: query)?.first,
                  let value = Self.decimal(line.number) else { continue }
            points.append(Point(date: set.date, text: line.number, value: value))
        }
        return points
    }

    private static func decimal(_ text: String) -> Decimal? {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}

extension RatesCache {
    /// The stored rates for the status page; nil while nothing is cached.
    public var view: RatesView? { current.map(RatesView.init) }
}
