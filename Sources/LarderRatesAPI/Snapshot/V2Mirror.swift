public import Foundation
public import LarderRates

/// A Frankfurter v2 mirror as v2 serves it: every provider's rows, ascending by day, and the
/// providers as the upstream's `/v2/providers` listed them.
public struct V2Mirror: Sendable {
    public let rows: V2MirrorRows
    public let providers: [V2ProviderInfo]
    /// When the rows last changed.
    public let lastModified: Date

    public init(rows: V2MirrorRows, providers: [V2ProviderInfo], lastModified: Date) {
        self.rows = rows
        self.providers = providers
        self.lastModified = lastModified
    }
}

/// Mirrored rows of many providers, grouped by day for v2's queries.
public final class V2MirrorRows: V2RowSource {
    /// One mirrored row: the rate's published text, read as Frankfurter reads it (a double).
    public struct Row: Sendable {
        public var provider: String
        public var date: RateDate
        public var base: String
        public var quote: String
        public var rate: String

        public init(provider: String, date: RateDate, base: String, quote: String, rate: String) {
            self.provider = provider
            self.date = date
            self.base = base
            self.quote = quote
            self.rate = rate
        }
    }

    private let days: [Int]
    private let byDay: [[V2Observation]]
    /// How many rows there are.
    public let rowCount: Int

    public init(_ rows: [Row]) {
        var days: [Int] = []
        var byDay: [[V2Observation]] = []
        var count = 0
        for row in rows.sorted(by: { $0.date < $1.date }) {
            guard let rate = Double(row.rate) else { continue }
            let day = row.date.dayNumber
            if days.last != day {
                days.append(day)
                byDay.append([])
            }
            byDay[byDay.count - 1].append(V2Observation(provider: row.provider, day: day, base: row.base, quote: row.quote, rate: rate))
            count += 1
        }
        self.days = days
        self.byDay = byDay
        rowCount = count
    }

    public var count: Int { days.count }

    public func day(at index: Int) -> Int { days[index] }

    public func rows(at index: Int) -> [V2Observation] { byDay[index] }
}
