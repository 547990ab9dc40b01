public import Foundation
public import GRDB

/// One entry of the last valid upstream index, in index order: what `/documents` lists.
public struct DocumentEntryRecord: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "document_entries"
    /// The resource name documents are stored under (items, upstream URL).
    public static let resource = "documents"

    public var name: String
    public var position: Int
    /// The resolved absolute URL to download the document from.
    public var url: String
    public var size: Int?
    public var sha256: String?
    public var contentType: String?
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(
        name: String, position: Int, url: String, size: Int?, sha256: String?, contentType: String?,
        createdAt: Date?, updatedAt: Date?
    ) {
        self.name = name
        self.position = position
        self.url = url
        self.size = size
        self.sha256 = sha256
        self.contentType = contentType
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Read by hand rather than through `Decodable`: a sync and the listing read every entry, and this is several times faster.
    public init(row: Row) throws {
        name = row["name"]
        position = row["position"]
        url = row["url"]
        size = row["size"]
        sha256 = row["sha256"]
        contentType = row["content_type"]
        createdAt = row["created_at"] as Date?
        updatedAt = row["updated_at"] as Date?
    }

    enum CodingKeys: String, CodingKey {
        case name, position, url, size, sha256
        case contentType = "content_type"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }
}

/// A document whose verified bytes are on disk, under `fileName` in the mirror's own directory.
public struct DocumentFileRecord: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "document_files"

    public var name: String
    /// The file in the mirror directory: unique per content, so a replacement never overwrites a file in use.
    public var fileName: String
    public var size: Int
    public var sha256: String
    public var contentType: String?
    public var createdAt: Date?
    public var updatedAt: Date?
    /// When these bytes were stored (their `Last-Modified` when the index gives no `updated_at`).
    public var storedAt: Date
    /// The last time the upstream confirmed or replaced the bytes.
    public var fetchedAt: Date
    public var etag: String?
    public var lastModified: String?

    public init(
        name: String, fileName: String, size: Int, sha256: String, contentType: String?, createdAt: Date?,
        updatedAt: Date?, storedAt: Date, fetchedAt: Date, etag: String?, lastModified: String?
    ) {
        self.name = name
        self.fileName = fileName
        self.size = size
        self.sha256 = sha256
        self.contentType = contentType
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.storedAt = storedAt
        self.fetchedAt = fetchedAt
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Read by hand rather than through `Decodable` (the first sync's sweep reads every file record).
    public init(row: Row) throws {
        name = row["name"]
        fileName = row["file_name"]
        size = row["size"]
        sha256 = row["sha256"]
        contentType = row["content_type"]
        createdAt = row["created_at"] as Date?
        updatedAt = row["updated_at"] as Date?
        storedAt = row["stored_at"] as Date? ?? Date(timeIntervalSince1970: 0)
        fetchedAt = row["fetched_at"] as Date? ?? Date(timeIntervalSince1970: 0)
        etag = row["etag"]
        lastModified = row["last_modified"]
    }

    enum CodingKeys: String, CodingKey {
        case name, size, sha256, etag
        case fileName = "file_name"
        case contentType = "content_type"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case storedAt = "stored_at"
        case fetchedAt = "fetched_at"
        case lastModified = "last_modified"
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }
}

extension Store {
    /// Every document on disk.
    public func documentFiles() throws(StoreError) -> [DocumentFileRecord] {
        try read { db in try DocumentFileRecord.fetchAll(db) }
    }

    /// Records a batch of documents' new bytes in one transaction (one commit, one WAL sync, for the batch).
    public func commitDocumentFiles(_ files: [DocumentFileRecord]) throws(StoreError) {
        try write { db in
            for file in files { try file.save(db) }
        }
    }

    /// Removes a document's record if it still names `fileName` (a newer copy committed since is kept).
    public func removeDocumentFile(name: String, fileName: String) throws(StoreError) {
        try write { db in
            _ = try DocumentFileRecord.filter(Column("name") == name && Column("file_name") == fileName).deleteAll(db)
        }
    }

    /// Removes documents' records (their files are deleted by the caller after this commits).
    public func removeDocumentFiles(_ names: [String]) throws(StoreError) {
        try write { db in
            for name in names { _ = try DocumentFileRecord.deleteOne(db, key: name) }
        }
    }
}
