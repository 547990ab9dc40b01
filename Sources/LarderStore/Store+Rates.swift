public import Foundation
import GRDB

/// One stored day of rates: the published digits as text, so nothing passes through floating point.
public struct RateSetRecord: Sendable, Equatable {
    /// The resource name the rates' item records and upstream URL are stored under.
    public static let resource = StoredResource.rates

    /// `YYYY-MM-DD`.
    public var date: String
    public var base: String
    public var createdAt: Date?
    public var updatedAt: Date?
    /// When Larder stored this content (its `Last-Modified`); unchanged while the content is.
    public var storedAt: Date
    /// Sorted by code.
    public var rates: [Rate]
    /// The day's rates object as Larder serves it, rendered when stored (nil in rows stored before v3).
    public var ratesJSON: [UInt8]?

    /// One currency of a stored day.
    public struct Rate: Sendable, Equatable {
        public var code: String
        public var name: String?
        public var value: String

        public init(code: String, name: String?, value: String) {
            self.code = code
            self.name = name
            self.value = value
        }
    }

    public init(
        date: String, base: String, createdAt: Date?, updatedAt: Date?, storedAt: Date, rates: [Rate],
        ratesJSON: [UInt8]? = nil
    ) {
        self.date = date
        self.base = base
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.storedAt = storedAt
        self.rates = rates
        self.ratesJSON = ratesJSON
    }
}

/// One stored day as the served history holds it: no rate rows, the rendered object instead.
public struct RateDayRecord: Sendable, Equatable {
    public var date: String
    public var base: String
    public var storedAt: Date
    /// nil for a day stored before rendered objects were kept (rendered and saved at the next start).
    public var ratesJSON: [UInt8]?
}

extension Store {
    /// The newest stored day, with its rates.
    public func latestRateSet() throws(StoreError) -> RateSetRecord? {
        try read { db in
            try Self.rateSet(db, sql: "SELECT * FROM rate_sets ORDER BY date DESC LIMIT 1", arguments: [])
        }
    }

    /// The stored day `date`, or the latest stored day before it.
    public func rateSet(onOrBefore date: String) async throws(StoreError) -> RateSetRecord? {
        try await read { db in
            try Self.rateSet(
                db, sql: "SELECT * FROM rate_sets WHERE date <= ? ORDER BY date DESC LIMIT 1", arguments: [date])
        }
    }

    /// The stored days among `dates`, keyed by date (synchronously: for start-up and a parse's job on the blocking pool).
    public func rateSets(dates: [String]) throws(StoreError) -> [String: RateSetRecord] {
        try read { db in try Self.rateSets(db, dates: dates) }
    }

    /// The stored days among `dates`, keyed by date.
    public func rateSets(dates: [String]) async throws(StoreError) -> [String: RateSetRecord] {
        try await read { db in try Self.rateSets(db, dates: dates) }
    }

    private static func rateSets(_ db: Database, dates: [String]) throws -> [String: RateSetRecord] {
        var found: [String: RateSetRecord] = [:]
        for date in dates {
            if let set = try rateSet(db, sql: "SELECT * FROM rate_sets WHERE date = ?", arguments: [date]) {
                found[date] = set
            }
        }
        return found
    }

    /// How many days are stored.
    public func rateSetCount() throws(StoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM rate_sets") ?? 0 }
    }

    /// Every stored day, oldest first, with its rendered rates object: what the served history is built from.
    public func rateDays() throws(StoreError) -> [RateDayRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT date, base, stored_at, rates_json FROM rate_sets ORDER BY date").map { row in
                RateDayRecord(
                    date: row[0], base: row[1], storedAt: Date(timeIntervalSince1970: row[2]),
                    ratesJSON: (row[3] as Data?).map { Array($0) })
            }
        }
    }

    /// Saves rendered rates objects of days stored before they were kept.
    public func saveRatesJSON(_ rendered: [(date: String, json: [UInt8])]) throws(StoreError) {
        try write { db in
            for (date, json) in rendered {
                try db.execute(sql: "UPDATE rate_sets SET rates_json = ? WHERE date = ?", arguments: [Data(json), date])
            }
        }
    }

    /// Replaces the given days and the feed's item record in one transaction: all of it lands, or none.
    /// `format` records what an `auto` upstream was read as. With `adopting`, every stored day (and a
    /// Frankfurter mirror's rows) is dropped first and that URL becomes the recorded upstream: the new
    /// upstream's copy replaces the old one whole (SPEC §4.9).
    public func commitRates(
        _ sets: [RateSetRecord], item: ItemRecord, format: String? = nil, adopting upstream: String? = nil
    ) async throws(StoreError) {
        try await write { db in try Self.commitRates(sets, item: item, format: format, adopting: upstream, in: db) }
    }

    /// `commitRates` synchronously, for a job that parses a payload and commits it in one step on the blocking pool.
    public func commitRates(
        _ sets: [RateSetRecord], item: ItemRecord, format: String? = nil, adopting upstream: String? = nil
    ) throws(StoreError) {
        try write { db in try Self.commitRates(sets, item: item, format: format, adopting: upstream, in: db) }
    }

    static func commitRates(
        _ sets: [RateSetRecord], item: ItemRecord, format: String?, adopting upstream: String?, in db: Database
    ) throws {
        if let upstream {
            try db.execute(sql: "DELETE FROM rate_sets")
            // The previous upstream's Frankfurter mirror goes with its days: the new copy replaces it whole.
            for table in FrankfurterTables.live.names { try db.execute(sql: "DELETE FROM \(table)") }
            try Self.adopt(upstream: upstream, resource: RateSetRecord.resource, in: db)
        }
        if let format {
            try db.execute(sql: "UPDATE resources SET format = ? WHERE name = ?", arguments: [format, RateSetRecord.resource])
        }
        for set in sets {
            try db.execute(sql: "DELETE FROM rate_sets WHERE date = ?", arguments: [set.date])
            try db.execute(
                sql: "INSERT INTO rate_sets(date, base, created_at, updated_at, stored_at, rates_json) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    set.date, set.base, set.createdAt?.timeIntervalSince1970,
                    set.updatedAt?.timeIntervalSince1970, set.storedAt.timeIntervalSince1970,
                    set.ratesJSON.map { Data($0) },
                ])
            let insert = try db.cachedStatement(sql: "INSERT INTO rates(date, code, name, value) VALUES (?, ?, ?, ?)")
            for rate in set.rates {
                try insert.execute(arguments: [set.date, rate.code, rate.name, rate.value])
            }
        }
        try item.save(db)
    }

    private static func rateSet(_ db: Database, sql: String, arguments: StatementArguments) throws -> RateSetRecord? {
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { return nil }
        let date: String = row["date"]
        let rates = try Row.fetchAll(
            db, sql: "SELECT code, name, value FROM rates WHERE date = ? ORDER BY code", arguments: [date]
        ).map { RateSetRecord.Rate(code: $0["code"], name: $0["name"], value: $0["value"]) }
        return RateSetRecord(
            date: date, base: row["base"],
            createdAt: (row["created_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            updatedAt: (row["updated_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            storedAt: Date(timeIntervalSince1970: row["stored_at"]),
            rates: rates)
    }
}
