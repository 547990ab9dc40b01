import GRDB

extension Store {
    /// Tables holding cached data, cleared on a format-version mismatch (not `meta` or `grdb_migrations`).
    static let dataTables = ["rates", "rate_sets", "items", "resources", "document_entries", "document_files"]
        + FrankfurterTables.live.names + FrankfurterTables.staged.names

    /// The columns that hold instants, as seconds since 1970 (REAL), per table.
    static let instantColumns = [
        ("items", ["fetched_at", "created_at", "updated_at"]),
        ("rate_sets", ["created_at", "updated_at", "stored_at"]),
        ("document_entries", ["created_at", "updated_at"]),
        ("document_files", ["created_at", "updated_at", "stored_at", "fetched_at"]),
    ]

    /// The schema, one registered step per change; GRDB applies the missing ones in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: meta, resources, items, rates") { db in
            try db.create(table: "meta") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "resources") { t in
                t.primaryKey("name", .text)
                t.column("upstream_url", .text).notNull()
            }
            // The freshness record of each cached item (SPEC §4): the rate feed, the documents index, each document.
            try db.create(table: "items") { t in
                t.column("resource", .text).notNull()
                t.column("key", .text).notNull()
                t.column("fetched_at", .double).notNull()
                t.column("created_at", .double)
                t.column("updated_at", .double)
                t.column("etag", .text)
                t.column("last_modified", .text)
                t.primaryKey(["resource", "key"])
            }
            try db.create(table: "rate_sets") { t in
                t.primaryKey("date", .text)
                t.column("base", .text).notNull()
                t.column("created_at", .double)
                t.column("updated_at", .double)
                t.column("stored_at", .double).notNull()
            }
            try db.create(table: "rates", options: .withoutRowID) { t in
                t.column("date", .text).notNull().references("rate_sets", onDelete: .cascade)
                t.column("code", .text).notNull()
                t.column("name", .text)
                // The published digits, as text: never a floating-point number.
                t.column("value", .text).notNull()
                t.primaryKey(["date", "code"])
            }
        }
        migrator.registerMigration("v2: documents") { db in
            try db.create(table: "document_entries") { t in
                t.primaryKey("name", .text)
                t.column("position", .integer).notNull()
                t.column("url", .text).notNull()
                t.column("size", .integer)
                t.column("sha256", .text)
                t.column("content_type", .text)
                t.column("created_at", .double)
                t.column("updated_at", .double)
            }
            try db.create(table: "document_files") { t in
                t.primaryKey("name", .text)
                t.column("file_name", .text).notNull().unique()
                t.column("size", .integer).notNull()
                t.column("sha256", .text).notNull()
                t.column("content_type", .text)
                t.column("created_at", .double)
                t.column("updated_at", .double)
                t.column("stored_at", .double).notNull()
                t.column("fetched_at", .double).notNull()
                t.column("etag", .text)
                t.column("last_modified", .text)
            }
        }
        migrator.registerMigration("v3: rendered rate days, detected formats") { db in
            // Each day's rates object as served (`{"AUD":1.6,…}`), rendered once when stored, so a
            // start loads the whole history without reading every rate row.
            try db.alter(table: "rate_sets") { t in t.add(column: "rates_json", .blob) }
            // The format an `auto` upstream was last read as (an ECB feed follows the ECB's calendar).
            try db.alter(table: "resources") { t in t.add(column: "format", .text) }
        }
        migrator.registerMigration("v4: instants as seconds") { db in
            // Records written through Codable stored their instants as GRDB's default text
            // ("2026-10-01 09:00:00.000") where the schema means seconds since 1970, and the records'
            // own readers took that text for a number (2026). Every text instant becomes its seconds,
            // to the millisecond; a number is left as it is.
            for (table, columns) in instantColumns {
                for column in columns {
                    try db.execute(sql: """
                        UPDATE \(table) SET \(column) = CAST(strftime('%s', \(column)) AS REAL)
                            + (CAST(strftime('%f', \(column)) AS REAL) - CAST(strftime('%S', \(column)) AS INTEGER))
                        WHERE typeof(\(column)) = 'text'
                        """)
                }
            }
        }
        migrator.registerMigration("v5: documents in index order") { db in
            // The mirror reads its entries a page at a time in index order rather than all at once.
            try db.create(index: "document_entries_position", on: "document_entries", columns: ["position"])
        }
        migrator.registerMigration("v6: a Frankfurter v2 mirror") { db in
            try FrankfurterTables.live.create(["rows", "catalog", "windows"], in: db)
        }
        migrator.registerMigration("v7: a Frankfurter v2 mirror read by window") { db in
            try FrankfurterTables.live.create(["days", "coverage"], in: db)
            try db.execute(sql: "INSERT INTO frankfurter_days(date) SELECT DISTINCT date FROM frankfurter_rows")
            try db.execute(sql: """
                INSERT INTO frankfurter_coverage(provider, base, quote, first, last, rows)
                SELECT provider, base, quote, min(date), max(date), count(*) FROM frankfurter_rows GROUP BY provider, base, quote
                """)
        }
        migrator.registerMigration("v8: a new Frankfurter upstream's mirror staged") { db in
            // A new upstream's mirror is synced beside the served one and swapped in whole (SPEC §4.9).
            try FrankfurterTables.staged.create(in: db)
        }
        migrator.registerMigration("v9: a Frankfurter v2 mirror's row counts") { db in
            // What versions a mirror (its rows are only added) without counting millions of rows at each load.
            try FrankfurterTables.live.countCoverageRows(in: db)
            try FrankfurterTables.staged.countCoverageRows(in: db)
        }
        return migrator
    }
}
