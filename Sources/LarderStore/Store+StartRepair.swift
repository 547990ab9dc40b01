public import Foundation
import GRDB

/// SPEC §4.11: a store never prevents a start, and no clock deletes what it holds. Whatever an
/// earlier Larder (or a clock set wrong) wrote, start-up repairs the instants no rule can read, and
/// the caches leave out of their answers what lies outside the bounds.
extension Store {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants an HTTP or RFC 3339 date can write.
    static let instantRange = -62_135_596_800.0...253_402_300_799.0

    /// The instants Larder itself records (the others are an upstream's data).
    static let recordedInstantColumns = [
        ("items", "fetched_at"), ("rate_sets", "stored_at"), ("document_files", "stored_at"), ("document_files", "fetched_at"),
    ]

    /// The newest `stored_at` or `fetched_at` that is a sane instant (a number of seconds within years
    /// 1...9999); nil when none is. With the clock, it says what "today" is (SPEC §4.11).
    public func newestRecordedInstant() throws(StoreError) -> Date? {
        try read { db in
            var newest: Double?
            for (table, column) in Self.recordedInstantColumns {
                let value = try Double.fetchOne(db, sql: """
                    SELECT max(\(column)) FROM \(table)
                    WHERE typeof(\(column)) IN ('integer', 'real') AND \(column) BETWEEN ? AND ?
                    """, arguments: [Self.instantRange.lowerBound, Self.instantRange.upperBound])
                if let value { newest = max(newest ?? value, value) }
            }
            return newest.map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Repairs instants no rule can read: any instant that is not a number of seconds within years
    /// 1...9999 (infinite, text, absurd) becomes NULL, or, in a column that needs a value, the later
    /// of `now` and the newest instant Larder recorded. A sane instant after `now` is kept: the clock
    /// may be the one that is wrong, and Larder's own instants are what "today" is read from (a
    /// `fetched_at` after now keeps nothing fresh: the refresher takes it as due). Answers
    /// `table.column: count` for each column changed.
    public func repairInstants(now: Date) throws(StoreError) -> [String] {
        let today = max(now, try newestRecordedInstant() ?? now).timeIntervalSince1970
        let seconds = min(max(today, Self.instantRange.lowerBound), Self.instantRange.upperBound)
        return try write { db in
            var repaired: [String] = []
            for (table, columns) in Self.instantColumns {
                for column in columns {
                    let ours = Self.recordedInstantColumns.contains { $0 == (table, column) }
                    let valid = "typeof(\(column)) IN ('integer', 'real') AND \(column) BETWEEN ? AND ?"
                    let replacement = ours ? "?" : "NULL"
                    var arguments: StatementArguments = ours ? [seconds] : []
                    arguments += [Self.instantRange.lowerBound, Self.instantRange.upperBound]
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
