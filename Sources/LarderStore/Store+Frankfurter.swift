public import Foundation
import GRDB

/// One row of a Frankfurter v2 mirror, as Frankfurter keeps it: `quote` per unit of `base` on `date`
/// from `provider`, the published digits as text.
public struct FrankfurterRowRecord: Sendable, Equatable, Hashable {
    public var provider: String
    public var date: String
    public var base: String
    public var quote: String
    public var rate: String

    public init(provider: String, date: String, base: String, quote: String, rate: String) {
        self.provider = provider
        self.date = date
        self.base = base
        self.quote = quote
        self.rate = rate
    }
}

extension Store {
    /// Every mirrored row, ascending by date, provider, base and quote.
    public func frankfurterRows() throws(StoreError) -> [FrankfurterRowRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT provider, date, base, quote, rate FROM frankfurter_rows ORDER BY date, provider, base, quote")
                .map { FrankfurterRowRecord(provider: $0[0], date: $0[1], base: $0[2], quote: $0[3], rate: $0[4]) }
        }
    }

    /// How many rows are mirrored.
    public func frankfurterRowCount() async throws(StoreError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM frankfurter_rows") ?? 0 }
    }

    /// Each provider's newest mirrored day (`YYYY-MM-DD`) on or before `notAfter`.
    public func frankfurterNewestDays(notAfter: String) async throws(StoreError) -> [String: String] {
        try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT provider, max(date) FROM frankfurter_rows WHERE date <= ? GROUP BY provider", arguments: [notAfter])
            return Dictionary(rows.map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: max)
        }
    }

    /// The first sync's finished requests, as `provider` → its windows.
    public func frankfurterFinishedWindows() async throws(StoreError) -> [String: Set<String>] {
        try await read { db in
            var finished: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT provider, window FROM frankfurter_windows") {
                finished[row[0] as String, default: []].insert(row[1])
            }
            return finished
        }
    }

    /// A catalogue answer as given (`providers`, `currencies`); nil before the first.
    public func frankfurterCatalog(_ name: String) throws(StoreError) -> [UInt8]? {
        try read { db in try Data.fetchOne(db, sql: "SELECT json FROM frankfurter_catalog WHERE name = ?", arguments: [name]).map { Array($0) } }
    }

    /// Keeps a catalogue answer as given, replacing the previous one.
    public func saveFrankfurterCatalog(_ name: String, json: [UInt8]) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO frankfurter_catalog(name, json) VALUES (?, ?)", arguments: [name, Data(json)])
        }
    }

    /// One answer of the mirror in one transaction: its rows added (a stored row is never rewritten, as
    /// Frankfurter's ingest does nothing on conflict), the window marked finished when `window` is given,
    /// and the rate days `derive` makes from `pivot`'s rows of the days that gained a row saved with `item`.
    /// Returns the rows that were new.
    public func commitFrankfurter(
        _ rows: [FrankfurterRowRecord], provider: String, window: String?, finishedAt: Date,
        pivot: (provider: String, base: String), item: ItemRecord,
        derive: @Sendable (_ days: [String: [(quote: String, rate: String)]]) -> [RateSetRecord]
    ) async throws(StoreError) -> [FrankfurterRowRecord] {
        try await write { db in
            var added: [FrankfurterRowRecord] = []
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO frankfurter_rows(provider, date, base, quote, rate) VALUES (?, ?, ?, ?, ?)")
            for row in rows {
                try insert.execute(arguments: [row.provider, row.date, row.base, row.quote, row.rate])
                if db.changesCount > 0 { added.append(row) }
            }
            if let window {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO frankfurter_windows(provider, window, finished_at) VALUES (?, ?, ?)",
                    arguments: [provider, window, finishedAt.timeIntervalSince1970])
            }
            let dates = Set(added.filter { $0.provider == pivot.provider && $0.base == pivot.base }.map(\.date))
            var days: [String: [(quote: String, rate: String)]] = [:]
            for date in dates {
                days[date] = try Row.fetchAll(
                    db, sql: "SELECT quote, rate FROM frankfurter_rows WHERE provider = ? AND date = ? AND base = ? ORDER BY quote",
                    arguments: [pivot.provider, date, pivot.base]
                ).map { ($0[0] as String, $0[1] as String) }
            }
            let sets = days.isEmpty ? [] : derive(days)
            try Self.commitRates(sets, item: item, format: nil, adopting: nil, in: db)
            return added
        }
    }
}
