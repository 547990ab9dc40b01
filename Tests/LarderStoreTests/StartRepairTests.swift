import Foundation
import GRDB
import LarderStore
import LarderTesting
import Testing

/// SPEC §4.11 at start: a clock that went back rewrites none of Larder's own instants (they say what
/// "today" is), and only values no rule can read are repaired.
@Suite("Store: start-up repair keeps Larder's own instants")
struct StartRepairTests {
    static let stored = Date(timeIntervalSince1970: 1_795_527_101)  // 2026-11-24
    static let ahead = Date(timeIntervalSince1970: 1_831_000_000)  // 2028-01-09

    @Test func aClockBehindRewritesNoInstantAndTheNewestSaneOneIsToday() throws {
        let directory = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try Store(directory: directory, logger: quietLogger)
            try store.prepare(resource: .rates, upstreamURL: "http://127.0.0.1:1/feed.xml")
            let day = RateSetRecord(
                date: "2026-11-20", base: "EUR", createdAt: nil, updatedAt: nil, storedAt: Self.stored,
                rates: [.init(code: "USD", name: nil, value: "1.0862")])
            try store.commitRates(
                [day], item: ItemRecord(resource: .rates, key: "feed", fetchedAt: Self.ahead, createdAt: nil, updatedAt: nil))
        }
        // What an earlier build could leave: a stored_at that is no instant at all, in a second day.
        let queue = try DatabaseQueue(path: directory + "/larder.sqlite")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO rate_sets(date, base, stored_at) VALUES ('2026-11-19', 'EUR', 'soon')")
        }
        try queue.close()

        let store = try Store(directory: directory, logger: quietLogger)
        #expect(try store.newestRecordedInstant() == Self.ahead, "the text is no instant; the fetched_at ahead is")
        // At 1970: nothing after it is rewritten; the unreadable value becomes "today", the later of the two.
        #expect(try store.repairInstants(now: Date(timeIntervalSince1970: 0)) == ["rate_sets.stored_at: 1"])
        #expect(try store.item(resource: .rates, key: "feed")?.fetchedAt == Self.ahead)
        let days = try store.rateSets(dates: ["2026-11-19", "2026-11-20"])
        #expect(days["2026-11-20"]?.storedAt == Self.stored)
        #expect(days["2026-11-19"]?.storedAt == Self.ahead)
        #expect(try store.rateSetCount() == 2)
    }
}
