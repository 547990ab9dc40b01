public import Foundation
import GRDB

/// SPEC §4.11: a store never prevents a start. Whatever an earlier Larder (or a clock set wrong)
/// wrote, start-up drops or repairs the values no rule may act on, and the rest is served.
extension Store {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants an HTTP or RFC 3339 date can write.
    static let instantRange = -62_135_596_800.0...253_402_300_799.0

    /// Deletes every stored rate day that `keeps` refuses (its `YYYY-MM-DD` text as stored, which
    /// may not even be a date), with its rates, in one transaction; answers the dropped days, sorted.
    public func dropRateDays(keeping keeps: (String) -> Bool) throws(StoreError) -> [String] {
        try write { db in
            let dropped = try String.fetchAll(db, sql: "SELECT date FROM rate_sets ORDER BY date").filter { !keeps($0) }
            let delete = try db.cachedStatement(sql: "DELETE FROM rate_sets WHERE date = ?")
            for date in dropped {
                try db.execute(sql: "DELETE FROM rates WHERE date = ?", arguments: [date])
                try delete.execute(arguments: [date])
            }
            return dropped
        }
    }

    /// Repairs instants no clock of this machine wrote: `stored_at` and `fetched_at` after `now` become
    /// `now` (a future `fetched_at` would keep a copy fresh, and unrefreshed, until then), and any
    /// instant that is not a number of seconds within years 1...9999 (infinite, text, absurd) becomes
    /// NULL, or `now` where the column needs a value. Upstream `created_at`/`updated_at` after now are
    /// kept: they are data, and the rules ignore them until they pass. Answers `table.column: count`
    /// for each column changed.
    public func repairInstants(now: Date) throws(StoreError) -> [String] {
        let seconds = min(max(now.timeIntervalSince1970, Self.instantRange.lowerBound), Self.instantRange.upperBound)
        return try write { db in
            var repaired: [String] = []
            for (table, columns) in Self.instantColumns {
                for column in columns {
                    let ours = column == "stored_at" || column == "fetched_at"
                    let valid = "typeof(\(column)) IN ('integer', 'real') AND \(column) BETWEEN ? AND ?"
                    let upper = ours ? seconds : Self.instantRange.upperBound
                    let replacement = ours ? "?" : "NULL"
                    var arguments: StatementArguments = ours ? [seconds] : []
                    arguments += [Self.instantRange.lowerBound, upper]
                    try db.execute(
                        sql: "UPDATE \(table) SET \(column) = \(replacement) WHERE \(column) IS NOT NULL AND NOT (\(valid))",
                        arguments: arguments)
                    if db.changesCount > 0 { repaired.append("\(table).\(column): \(db.changesCount)") }
                }
            }
            return repaired
        }
    }
}
