import GRDB

/// Which set of a Frankfurter v2 mirror's tables a sync writes: the served one, or one staged beside
/// it while a new upstream's first copy is synced, swapped in whole once complete (SPEC §4.9).
public enum FrankfurterTables: Sendable {
    case live
    case staged

    /// The tables' common prefix.
    var prefix: String {
        switch self {
        case .live: "frankfurter_"
        case .staged: "frankfurter_staged_"
        }
    }

    /// `rows` as this set names it: `frankfurter_rows` or `frankfurter_staged_rows`.
    func table(_ name: String) -> String { prefix + name }

    /// What each set holds, by unprefixed name.
    static let parts = ["rows", "catalog", "windows", "days", "coverage"]

    /// Adds `coverage.rows` where an earlier version made the table without it, counted from the rows.
    func countCoverageRows(in db: Database) throws {
        let coverage = table("coverage")
        guard try !db.columns(in: coverage).contains(where: { $0.name == "rows" }) else { return }
        try db.alter(table: coverage) { t in t.add(column: "rows", .integer).notNull().defaults(to: 0) }
        try db.execute(sql: """
            UPDATE \(coverage) AS c SET rows = g.n
            FROM (SELECT provider, base, quote, count(*) AS n FROM \(table("rows")) GROUP BY provider, base, quote) AS g
            WHERE c.provider = g.provider AND c.base = g.base AND c.quote = g.quote
            """)
    }

    /// Every table of the set.
    var names: [String] { Self.parts.map(table) }

    /// Creates `parts` of the set (all by default): migrations v6 and v7 made the live ones, v8 the staged
    /// (with today's columns: v9 adds `coverage.rows` only where it is missing).
    func create(_ parts: [String] = parts, in db: Database) throws {
        for part in parts {
            switch part {
            case "rows":
                // As Frankfurter keeps them: one per provider, day and pair, the published digits as text.
                try db.create(table: table(part), options: .withoutRowID) { t in
                    t.column("provider", .text).notNull()
                    t.column("date", .text).notNull()
                    t.column("base", .text).notNull()
                    t.column("quote", .text).notNull()
                    t.column("rate", .text).notNull()
                    t.primaryKey(["provider", "date", "base", "quote"])
                }
            case "catalog":
                // `/v2/providers` and `/v2/currencies?scope=all` as the upstream gave them.
                try db.create(table: table(part)) { t in
                    t.primaryKey("name", .text)
                    t.column("json", .blob).notNull()
                }
            case "windows":
                // The first sync's finished requests, so a restart continues where it stopped.
                try db.create(table: table(part), options: .withoutRowID) { t in
                    t.column("provider", .text).notNull()
                    t.column("window", .text).notNull()
                    t.column("finished_at", .double).notNull()
                    t.primaryKey(["provider", "window"])
                }
            case "days":
                // The days holding rows, kept by every commit: a query's window is found without a pass
                // over the rows (an index by date would cost every insert a random write into millions).
                try db.create(table: table(part), options: .withoutRowID) { t in
                    t.primaryKey("date", .text)
                }
            default:
                // Each (provider, base, quote)'s first and last day and its number of rows, kept by every
                // commit: the catalogue's coverage and the mirror's size without a pass over millions of rows.
                try db.create(table: table(part), options: .withoutRowID) { t in
                    t.column("provider", .text).notNull()
                    t.column("base", .text).notNull()
                    t.column("quote", .text).notNull()
                    t.column("first", .text).notNull()
                    t.column("last", .text).notNull()
                    t.column("rows", .integer).notNull().defaults(to: 0)
                    t.primaryKey(["provider", "base", "quote"])
                }
            }
        }
    }
}
