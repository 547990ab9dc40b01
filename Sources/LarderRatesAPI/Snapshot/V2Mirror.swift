public import Foundation

/// A Frankfurter v2 mirror as v2 serves it: every provider's rows, ascending by day, and the
/// providers as the upstream's `/v2/providers` listed them.
public struct V2Mirror: Sendable {
    public let rows: any V2RowSource
    public let providers: [V2ProviderInfo]
    /// When the rows last changed.
    public let lastModified: Date
    /// The providers' coverage when the store keeps it (else read from the rows on first use).
    public let coverage: ProviderCoverage?

    public init(rows: any V2RowSource, providers: [V2ProviderInfo], lastModified: Date, coverage: ProviderCoverage? = nil) {
        self.rows = rows
        self.providers = providers
        self.lastModified = lastModified
        self.coverage = coverage
    }
}

/// Mirrored rows of many providers, grouped by day for v2's queries.
public final class V2MirrorRows: V2RowSource {
    private let days: [Int]
    private let byDay: [[V2Observation]]
    /// How many rows there are.
    public let rowCount: Int

    /// `rows` in any order.
    public init(_ rows: [V2Observation]) {
        var days: [Int] = []
        var byDay: [[V2Observation]] = []
        for row in rows.sorted(by: { $0.day < $1.day }) {
            if days.last != row.day {
                days.append(row.day)
                byDay.append([])
            }
            byDay[byDay.count - 1].append(row)
        }
        self.days = days
        self.byDay = byDay
        rowCount = rows.count
    }

    public var count: Int { days.count }

    public func day(at index: Int) -> Int { days[index] }

    public func rows(at index: Int) -> [V2Observation] { byDay[index] }
}
