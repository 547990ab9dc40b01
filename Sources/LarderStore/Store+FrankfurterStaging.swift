import GRDB

extension Store {
    /// The `meta` key naming the upstream list the staged mirror tables belong to.
    static let stagedForKey = "frankfurter_staged_for"

    /// Readies the staged mirror tables for a sync from `identity` (the configured upstream list): what
    /// an earlier sync of the same list staged is kept, so a restart continues; another list's is dropped.
    public func stageFrankfurter(for identity: String) async throws(StoreError) {
        try await write { db in
            let owner = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.stagedForKey])
            guard owner != identity else { return }
            for table in FrankfurterTables.staged.names { try db.execute(sql: "DELETE FROM \(table)") }
            try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", arguments: [Self.stagedForKey, identity])
        }
    }

    /// The staged mirror swapped in whole, in one transaction (SPEC §4.9): the previous upstream's days
    /// and mirror dropped, the staged tables become the served ones, `identity` the recorded upstream,
    /// and every rate day `derive` makes from `pivot`'s staged rows saved with `item`. Returns those days.
    public func adoptStagedFrankfurter(
        upstream identity: String, pivot: (provider: String, base: String), item: ItemRecord,
        derive: @Sendable (_ days: [String: [(quote: String, rate: String)]]) -> [RateSetRecord]
    ) async throws(StoreError) -> [RateSetRecord] {
        try await write { db in
            var days: [String: [(quote: String, rate: String)]] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT date, quote, rate FROM frankfurter_staged_rows WHERE provider = ? AND base = ? ORDER BY date, quote",
                arguments: [pivot.provider, pivot.base])
            while let row = try rows.next() { days[row[0] as String, default: []].append((row[1] as String, row[2] as String)) }
            let sets = derive(days)
            try Self.commitRates(sets, item: item, format: nil, adopting: identity, in: db)
            // Renamed, not copied: millions of rows change hands in a few page writes.
            for part in FrankfurterTables.parts {
                try db.execute(sql: "DROP TABLE \(FrankfurterTables.live.table(part))")
                try db.execute(sql: "ALTER TABLE \(FrankfurterTables.staged.table(part)) RENAME TO \(FrankfurterTables.live.table(part))")
            }
            try FrankfurterTables.staged.create(in: db)
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.stagedForKey])
            return sets
        }
    }
}
