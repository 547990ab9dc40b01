import Foundation
import GRDB
import LarderStore
import LarderTesting
import Testing

/// A mirror's size, what versions it for a tier's validators, is kept by every commit in the coverage
/// table: never a pass over its rows at load, and counted once when an earlier version's store migrates.
@Suite("Store: a Frankfurter mirror's row count")
struct FrankfurterRowCountTests {
    static let item = ItemRecord(
        resource: .rates, key: "feed", fetchedAt: Date(timeIntervalSince1970: 1_790_000_000),
        createdAt: nil, updatedAt: nil, etag: nil, lastModified: nil)

    static func rows(_ provider: String, days: ClosedRange<Int>) -> [FrankfurterRowRecord] {
        days.flatMap { day in
            ["CHF", "USD"].map { FrankfurterRowRecord(provider: provider, date: "2026-11-\(day < 10 ? "0" : "")\(day)", base: "EUR", quote: $0, rate: "1.\(day)") }
        }
    }

    static func commit(_ rows: [FrankfurterRowRecord], _ store: Store) async throws -> Int {
        try await store.commitFrankfurter(
            rows, provider: rows[0].provider, window: nil, finishedAt: item.fetchedAt, pivot: ("ECB", "EUR"), item: item
        ) { _ in [] }.count
    }

    @Test func everyAddedRowCountsOnceAndRowsAfterTheBoundsAreLeftOut() async throws {
        try await withTemporaryDirectory { directory in
            let store = try Store(directory: directory, logger: quietLogger)
            #expect(try await Self.commit(Self.rows("ECB", days: 1...10), store) == 20)
            #expect(try store.frankfurterRowCount(notAfter: "2026-11-30") == 20)
            // Ten rows again, four of them new: only those count.
            #expect(try await Self.commit(Self.rows("ECB", days: 9...12), store) == 4)
            #expect(try await Self.commit(Self.rows("BOC", days: 20...29), store) == 20)
            #expect(try store.frankfurterRowCount(notAfter: "2026-11-30") == 44)
            #expect(try store.frankfurterRowCount(notAfter: "2026-11-25") == 44 - 8, "the rows of 26 to 29 November after the bounds")
        }
    }

    @Test func aStoreOfAnEarlierVersionIsCountedOnceWhenItMigrates() async throws {
        try await withTemporaryDirectory { directory in
            let store = try Store(directory: directory, logger: quietLogger)
            _ = try await Self.commit(Self.rows("ECB", days: 1...10), store)
            _ = try await Self.commit(Self.rows("BOC", days: 1...5), store)
            let database = try DatabaseQueue(path: directory + "/" + Store.fileName)
            try await database.write { db in
                // As v8 left it: no counts.
                try db.execute(sql: "ALTER TABLE frankfurter_coverage DROP COLUMN rows")
                try db.execute(sql: "ALTER TABLE frankfurter_staged_coverage DROP COLUMN rows")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v9:%'")
            }
            try database.close()
            let migrated = try Store(directory: directory, logger: quietLogger)
            #expect(try migrated.frankfurterRowCount(notAfter: "2026-11-30") == 30)
            #expect(try await Self.commit(Self.rows("BOC", days: 5...6), migrated) == 2)
            #expect(try migrated.frankfurterRowCount(notAfter: "2026-11-30") == 32)
        }
    }
}
