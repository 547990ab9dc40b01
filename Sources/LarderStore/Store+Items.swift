public import Foundation
public import GRDB

/// The freshness record of one cached item (SPEC §4): when the upstream last confirmed it, its
/// upstream timestamps, and the validators to revalidate it with.
public struct ItemRecord: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "items"

    public var resource: StoredResource
    public var key: String
    /// The last time the upstream confirmed or replaced the item (a 304 included).
    public var fetchedAt: Date
    public var createdAt: Date?
    public var updatedAt: Date?
    public var etag: String?
    public var lastModified: String?

    public init(
        resource: StoredResource, key: String, fetchedAt: Date, createdAt: Date? = nil, updatedAt: Date? = nil,
        etag: String? = nil, lastModified: String? = nil
    ) {
        self.resource = resource
        self.key = key
        self.fetchedAt = fetchedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.etag = etag
        self.lastModified = lastModified
    }

    enum CodingKeys: String, CodingKey {
        case resource, key, etag
        case fetchedAt = "fetched_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastModified = "last_modified"
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }
}

extension Store {
    /// The item's record, or nil when it was never fetched (synchronously: for start-up).
    public func item(resource: StoredResource, key: String) throws(StoreError) -> ItemRecord? {
        try read { db in try Self.item(db, resource: resource, key: key) }
    }

    /// The item's record, or nil when it was never fetched.
    public func item(resource: StoredResource, key: String) async throws(StoreError) -> ItemRecord? {
        try await read { db in try Self.item(db, resource: resource, key: key) }
    }

    private static func item(_ db: Database, resource: StoredResource, key: String) throws -> ItemRecord? {
        try ItemRecord.fetchOne(db, key: ["resource": resource, "key": key])
    }

    /// Inserts or replaces one item's record.
    public func save(_ item: ItemRecord) throws(StoreError) {
        try write { db in try item.save(db) }
    }

    /// Moves only `fetched_at` (a 304, or a check that changed nothing), and the validators when the
    /// upstream sent new ones (synchronously: for a job that parses and writes in one step on the blocking pool).
    public func touch(resource: StoredResource, key: String, fetchedAt: Date, etag: String?, lastModified: String?) throws(StoreError) {
        try write { db in
            try Self.touch(db, resource: resource, key: key, fetchedAt: fetchedAt, etag: etag, lastModified: lastModified)
        }
    }

    /// Moves only `fetched_at` (a 304, or a check that changed nothing), and the validators when the upstream sent new ones.
    public func touch(
        resource: StoredResource, key: String, fetchedAt: Date, etag: String?, lastModified: String?
    ) async throws(StoreError) {
        try await write { db in
            try Self.touch(db, resource: resource, key: key, fetchedAt: fetchedAt, etag: etag, lastModified: lastModified)
        }
    }

    private static func touch(
        _ db: Database, resource: StoredResource, key: String, fetchedAt: Date, etag: String?, lastModified: String?
    ) throws {
        try db.execute(
            sql: """
                UPDATE items SET fetched_at = ?, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified)
                WHERE resource = ? AND key = ?
                """,
            arguments: [fetchedAt.timeIntervalSince1970, etag, lastModified, resource, key])
    }
}
