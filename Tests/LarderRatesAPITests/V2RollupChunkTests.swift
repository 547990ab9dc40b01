import Foundation
import LarderRates
@testable import LarderRatesAPI
import Testing

/// `group=week|month` builds each chunk's buckets from that chunk's days (a mirror's whole history is
/// millions of rows): every answer equals the one built from the whole history's rollup, across year
/// ends, Frankfurter's chunk seams and a long gap before a range's start.
@Suite("Frankfurter v2: rollups built a chunk at a time")
struct V2RollupChunkTests {
    /// Twelve years of three providers' business days, with no rows for 200 days in the middle.
    struct Rows: V2RowSource {
        let days: [Int]
        let byDay: [[V2Observation]]

        init() {
            let start = RateDate("2012-01-02")!.dayNumber
            let gap = (start + 2000)...(start + 2200)
            var days: [Int] = []
            var byDay: [[V2Observation]] = []
            for day in start..<(start + 12 * 365) where (day - start) % 7 < 5 && !gap.contains(day) {
                days.append(day)
                byDay.append([("BOC", "CAD"), ("ECB", "EUR"), ("NBP", "PLN")].flatMap { provider, base in
                    ["GBP", "JPY", "USD"].map { quote in
                        V2Observation(
                            provider: provider, day: day, base: base, quote: quote,
                            rate: 1 + Double((day * 7919 + Int(quote.utf8.first!) * 31) % 1000) / 997)
                    }
                })
            }
            self.days = days
            self.byDay = byDay
        }

        var count: Int { days.count }
        func day(at index: Int) -> Int { days[index] }
        func rows(at index: Int) -> [V2Observation] { byDay[index] }
    }

    static func records(_ query: String, _ sources: V2Sources) throws -> [V2Record] {
        let items = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: parts[0], value: parts[1])
        }
        let plan = try V2RatesQuery(items, isKnown: V2SnapshotState.isKnown)
            .plan(provider: "", on: ServingDay(today: RateDate("2024-06-01")!, isOffline: false))
        var records: [V2Record] = []
        plan.each(sources) { records.append($0) }
        return records
    }

    @Test(arguments: [
        "group=week&from=2012-01-02&to=2023-12-29",
        "group=month&from=2012-01-02&to=2023-12-29",
        "group=week&from=2017-07-01&to=2019-03-01&quotes=USD",
        "group=month&from=2017-08-15&to=2018-02-01&base=USD",
        "group=week&from=2016-12-20&to=2017-01-20&providers=ECB,NBP",
    ])
    func chunkedBucketsEqualTheWholeHistorys(query: String) throws {
        let rows = Rows()
        let state = V2SnapshotState(rows: rows, providers: [], lastModified: .distantPast)
        let whole = [V2RatesPlan.Group.week: V2Rollup(rows, group: .week), .month: V2Rollup(rows, group: .month)]
        let reference = V2Sources(raw: state.sources.raw, blended: state.sources.blended) { group, _ in whole[group]! }
        let expected = try Self.records(query, reference)
        #expect(!expected.isEmpty)
        #expect(try Self.records(query, state.sources) == expected)
    }
}
