import Foundation
import LarderRates
@testable import LarderRatesAPI
@testable import LarderRatesCache
import LarderStore
import LarderTesting
import Synchronization
import Testing

/// A mirror's rows are read from the store a window at a time, never all at once (a full Frankfurter is
/// millions of rows), in the order the blend sums in, and its coverage comes from the store's table.
@Suite("Rates: a Frankfurter mirror read from the store by window")
struct StoreMirrorRowsTests {
    static let providers = ["BOC", "ECB", "NBP"]
    static let start = RateDate("2026-01-01")!

    /// 300 days of three providers' rows, committed as the mirror commits them, ten rows to a day.
    static func filled(_ directory: String) async throws -> Store {
        let store = try Store(directory: directory, logger: quietLogger)
        let item = ItemRecord(
            resource: RateSetRecord.resource, key: RatesSync.itemKey, fetchedAt: Date(timeIntervalSince1970: 1_790_000_000),
            createdAt: nil, updatedAt: nil, etag: nil, lastModified: nil)
        for provider in providers {
            var rows: [FrankfurterRowRecord] = []
            for offset in 0..<300 {
                let date = start.adding(days: offset)!.description
                for (index, quote) in ["AUD", "CHF", "GBP", "JPY", "USD"].enumerated() where provider != "NBP" || index < 3 {
                    rows.append(FrankfurterRowRecord(
                        provider: provider, date: date, base: provider == "ECB" ? "EUR" : "XXX", quote: quote,
                        rate: "\(1 + index).\(offset)"))
                }
            }
            _ = try await store.commitFrankfurter(
                rows.shuffled(), provider: provider, window: nil, finishedAt: item.fetchedAt, pivot: ("ECB", "EUR"), item: item
            ) { _ in [] }
        }
        return store
    }

    @Test func aQueryReadsOnlyTheWindowItNeeds() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.filled(directory)
            let rows = try StoreMirrorRows(store, notAfter: RateDate("2026-12-31")!, logger: quietLogger)
            #expect(rows.count == 300)
            // The latest answer's lookback: the last block or two, not the 300 days.
            let latest = rows.carriedForward(to: rows.day(at: rows.count - 1))
            #expect(latest.count == 13)
            #expect(rows.blocksRead.load(ordering: .relaxed) <= 2)
            // A walk over every day reads each block once and keeps only a few.
            // Every row at once, grouped by day in the store's order: what the window reads must equal.
            var days: [Int] = []
            var byDay: [[V2Observation]] = []
            for record in try store.frankfurterRows() {
                let day = RateDate(record.date)!.dayNumber
                if days.last != day {
                    days.append(day)
                    byDay.append([])
                }
                byDay[byDay.count - 1].append(
                    V2Observation(provider: record.provider, day: day, base: record.base, quote: record.quote, rate: Double(record.rate)!))
            }
            for index in 0..<rows.count {
                #expect(rows.day(at: index) == days[index])
                #expect(rows.rows(at: index) == byDay[index], "day \(index): the store's order is the blend's")
            }
            #expect(rows.blocksRead.load(ordering: .relaxed) <= 2 + (300 + StoreMirrorRows.blockDays - 1) / StoreMirrorRows.blockDays)
        }
    }

    @Test func theCoverageIsTheStoresAndLeavesOutDaysAfterTheBounds() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.filled(directory)
            let notAfter = Self.start.adding(days: 199)!
            let mirror = try #require(try V2Mirror.load(store, notAfter: notAfter, lastModified: Date(), logger: quietLogger))
            #expect(mirror.rows.count == 200)
            let coverage = try #require(mirror.coverage)
            #expect(coverage.providers(of: "JPY") == ["BOC", "ECB"])
            #expect(coverage.providers(of: "GBP") == ["BOC", "ECB", "NBP"])
            #expect(coverage.byProvider["NBP"]?["XXX"] == CurrencyCoverage.Span(first: Self.start, last: notAfter))
            #expect(coverage.spans["EUR"] == CurrencyCoverage.Span(first: Self.start, last: notAfter))
        }
    }
}
