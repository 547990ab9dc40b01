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
        try frankfurterRows(from: "", through: "\u{10FFFF}")
    }

    /// The mirrored rows dated `from` through `through` (`YYYY-MM-DD`), ascending by date, provider,
    /// base and quote: the order Frankfurter's read meets them, which the blend sums in.
    public func frankfurterRows(from: String, through: String) throws(StoreError) -> [FrankfurterRowRecord] {
        try read { db in
            // One range of the primary key (provider, date, …) per provider, not a pass over every row.
            try Row.fetchAll(
                db,
                sql: """
                    SELECT provider, date, base, quote, rate FROM frankfurter_rows
                    WHERE provider IN (SELECT DISTINCT provider FROM frankfurter_coverage) AND date BETWEEN ? AND ?
                    ORDER BY date, provider, base, quote
                    """,
                arguments: [from, through]
            ).map { FrankfurterRowRecord(provider: $0[0], date: $0[1], base: $0[2], quote: $0[3], rate: $0[4]) }
        }
    }

    /// Every day holding a mirrored row on or before `notAfter`, ascending.
    public func frankfurterDays(notAfter: String) throws(StoreError) -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT date FROM frankfurter_days WHERE date <= ? ORDER BY date", arguments: [notAfter])
        }
    }

    /// How many mirrored rows are dated after `notAfter`, and a few of them as `provider date`.
    public func frankfurterRowsAfter(_ notAfter: String) throws(StoreError) -> (count: Int, some: [String]) {
        try read { db in
            // Rare (a clock that ran ahead once): read by provider through the primary key.
            let later = "provider IN (SELECT DISTINCT provider FROM frankfurter_coverage WHERE last > ?1) AND date > ?1"
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM frankfurter_rows WHERE \(later)", arguments: [notAfter]) ?? 0
            let some = try Row.fetchAll(
                db, sql: "SELECT provider, date FROM frankfurter_rows WHERE \(later) ORDER BY date LIMIT 5", arguments: [notAfter]
            ).map { "\($0[0] as String) \($0[1] as String)" }
            return (count, some)
        }
    }

    /// Each (provider, base, quote)'s first and last mirrored day on or before `notAfter`.
    public func frankfurterCoverage(notAfter: String) throws(StoreError) -> [(provider: String, base: String, quote: String, first: String, last: String)] {
        try read { db in
            var spans: [(provider: String, base: String, quote: String, first: String, last: String)] = []
            for row in try Row.fetchAll(db, sql: "SELECT provider, base, quote, first, last FROM frankfurter_coverage") {
                let (provider, base, quote, first) = (row[0] as String, row[1] as String, row[2] as String, row[3] as String)
                var last: String = row[4]
                if first > notAfter { continue }
                if last > notAfter {
                    // Rare (a clock that ran ahead once): the pair's last day within the bounds.
                    guard let within = try String.fetchOne(
                        db, sql: "SELECT max(date) FROM frankfurter_rows WHERE provider = ? AND base = ? AND quote = ? AND date <= ?",
                        arguments: [provider, base, quote, notAfter]) else { continue }
                    last = within
                }
                spans.append((provider, base, quote, first, last))
            }
            return spans
        }
    }

    /// How many served rows are dated on or before `notAfter`: what a mirror's version counts (rows are
    /// only ever added, so the count changes whenever the rows do), less the rare rows after the bounds.
    public func frankfurterRowCount(notAfter: String) throws(StoreError) -> Int {
        try read { db in try Self.rowCount(in: .live, db) } - (try frankfurterRowsAfter(notAfter).count)
    }

    /// How many rows `tables` hold.
    public func frankfurterRowCount(in tables: FrankfurterTables = .live) async throws(StoreError) -> Int {
        try await read { db in try Self.rowCount(in: tables, db) }
    }

    /// The coverage's counts, kept by every commit: no pass over millions of rows (a `count(*)` took
    /// 1.1 s at full size, twice a mirror refresh for its progress).
    private static func rowCount(in tables: FrankfurterTables, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT coalesce(sum(rows), 0) FROM \(tables.table("coverage"))") ?? 0
    }

    /// Each provider's newest day (`YYYY-MM-DD`) in `tables` on or before `notAfter`.
    public func frankfurterNewestDays(notAfter: String, in tables: FrankfurterTables = .live) async throws(StoreError) -> [String: String] {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT provider, (SELECT max(date) FROM \(tables.table("rows")) r WHERE r.provider = p.provider AND r.date <= ?)
                    FROM (SELECT DISTINCT provider FROM \(tables.table("coverage"))) p
                    """,
                arguments: [notAfter])
            // One lookup of the primary key per provider, not a pass over every row.
            return Dictionary(rows.compactMap { row in (row[1] as String?).map { (row[0] as String, $0) } }, uniquingKeysWith: max)
        }
    }

    /// The first sync's finished requests in `tables`, as `provider` → its windows.
    public func frankfurterFinishedWindows(in tables: FrankfurterTables = .live) async throws(StoreError) -> [String: Set<String>] {
        try await read { db in
            var finished: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT provider, window FROM \(tables.table("windows"))") {
                finished[row[0] as String, default: []].insert(row[1])
            }
            return finished
        }
    }

    /// A catalogue answer as given (`providers`, `currencies`); nil before the first.
    public func frankfurterCatalog(_ name: String) throws(StoreError) -> [UInt8]? {
        try read { db in try Data.fetchOne(db, sql: "SELECT json FROM frankfurter_catalog WHERE name = ?", arguments: [name]).map { Array($0) } }
    }

    /// Keeps a catalogue answer as given in `tables`, replacing the previous one.
    public func saveFrankfurterCatalog(_ name: String, json: [UInt8], in tables: FrankfurterTables = .live) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO \(tables.table("catalog"))(name, json) VALUES (?, ?)", arguments: [name, Data(json)])
        }
    }

    /// One answer of the mirror in one transaction: its rows added to `tables` (a stored row is never
    /// rewritten, as Frankfurter's ingest does nothing on conflict), the window marked finished when
    /// `window` is given, and, in the live tables, the rate days `derive` makes from `pivot`'s rows of the
    /// days that gained a row saved with `item` (staged rows wait for `adoptStagedFrankfurter`).
    /// Returns the rows that were new.
    public func commitFrankfurter(
        _ rows: [FrankfurterRowRecord], provider: String, window: String?, finishedAt: Date, in tables: FrankfurterTables = .live,
        pivot: (provider: String, base: String), item: ItemRecord,
        derive: @Sendable (_ days: [String: [(quote: String, rate: String)]]) -> [RateSetRecord]
    ) async throws(StoreError) -> [FrankfurterRowRecord] {
        try await write { db in
            var added: [FrankfurterRowRecord] = []
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO \(tables.table("rows"))(provider, date, base, quote, rate) VALUES (?, ?, ?, ?, ?)")
            for row in rows {
                try insert.execute(arguments: [row.provider, row.date, row.base, row.quote, row.rate])
                if db.changesCount > 0 { added.append(row) }
            }
            try Self.widenCoverage(with: added, in: tables, db)
            if let window {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO \(tables.table("windows"))(provider, window, finished_at) VALUES (?, ?, ?)",
                    arguments: [provider, window, finishedAt.timeIntervalSince1970])
            }
            guard tables == .live else { return added }
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

    /// The coverage and days tables widened by newly added rows, in their commit's transaction.
    private static func widenCoverage(with added: [FrankfurterRowRecord], in tables: FrankfurterTables, _ db: Database) throws {
        let day = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(tables.table("days"))(date) VALUES (?)")
        for date in Set(added.map(\.date)) { try day.execute(arguments: [date]) }
        var spans: [String: (row: FrankfurterRowRecord, first: String, last: String, rows: Int)] = [:]
        for row in added {
            let key = row.provider + "/" + row.base + "/" + row.quote
            if let span = spans[key] {
                spans[key] = (span.row, min(span.first, row.date), max(span.last, row.date), span.rows + 1)
            } else {
                spans[key] = (row, row.date, row.date, 1)
            }
        }
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO \(tables.table("coverage"))(provider, base, quote, first, last, rows) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(provider, base, quote) DO UPDATE
            SET first = min(first, excluded.first), last = max(last, excluded.last), rows = rows + excluded.rows
            """)
        for span in spans.values {
            try upsert.execute(arguments: [span.row.provider, span.row.base, span.row.quote, span.first, span.last, span.rows])
        }
    }
}
