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

    /// Every table of the set.
    var names: [String] { Self.parts.map(table) }

    /// Creates `parts` of the set (all by default): migrations v6 and v7 made the live ones, v8 the staged.
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
                // Each (provider, base, quote)'s first and last day, kept by every commit: the catalogue's
                // coverage without a pass over millions of rows.
                try db.create(table: table(part), options: .withoutRowID) { t in
                    t.column("provider", .text).notNull()
                    t.column("base", .text).notNull()
                    t.column("quote", .text).notNull()
                    t.column("first", .text).notNull()
                    t.column("last", .text).notNull()
                    t.primaryKey(["provider", "base", "quote"])
                }
            }
        }
    }
}
