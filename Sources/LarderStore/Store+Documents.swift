public import Foundation
public import GRDB

/// One entry of the last valid upstream index, in index order: what `/documents` lists.
public struct DocumentEntryRecord: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "document_entries"
    /// The resource name documents are stored under (items, upstream URL).
    public static let resource = StoredResource.documents

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

/// A listed document with its stored copy, if any: one row of the mirror as SQLite holds it.
public struct ListedDocument: Sendable, Equatable {
    public var entry: DocumentEntryRecord
    public var file: DocumentFileRecord?

    public init(entry: DocumentEntryRecord, file: DocumentFileRecord?) {
        self.entry = entry
        self.file = file
    }
}

/// What `/status` and `/metrics` count of the mirror.
public struct DocumentCounts: Sendable, Equatable {
    /// Entries of the last valid index.
    public var listed: Int
    /// Listed documents whose bytes are stored.
    public var mirrored: Int
    /// The stored bytes of those.
    public var bytes: Int

    public init(listed: Int, mirrored: Int, bytes: Int) {
        self.listed = listed
        self.mirrored = mirrored
        self.bytes = bytes
    }
}

/// The mirror's reads that keep memory flat: one document, a page in index order, or a pass with a
/// cursor, instead of every record at once (an index may list 100,000 documents).
extension Store {
    /// The file columns, prefixed, for joins that read an entry and its file in one row.
    private static let fileColumns = ["name", "file_name", "size", "sha256", "content_type", "created_at",
                                      "updated_at", "stored_at", "fetched_at", "etag", "last_modified"]
    private static let joinedSelect = "SELECT e.*, " + fileColumns.map { "f.\($0) AS f_\($0)" }.joined(separator: ", ")
        + " FROM document_entries e LEFT JOIN document_files f ON f.name = e.name"

    /// The entry of `name` and its stored file; both nil when `name` is not listed (one indexed join).
    /// Synchronously, for a loop thread's answer from memory that missed (rare) and the status page.
    public func document(named name: String) throws(StoreError) -> (entry: DocumentEntryRecord?, file: DocumentFileRecord?) {
        try read { db in try Self.document(db, named: name) }
    }

    /// The entry of `name` and its stored file; both nil when `name` is not listed (one indexed join).
    public func document(named name: String) async throws(StoreError) -> (entry: DocumentEntryRecord?, file: DocumentFileRecord?) {
        try await read { db in try Self.document(db, named: name) }
    }

    private static func document(_ db: Database, named name: String) throws -> (entry: DocumentEntryRecord?, file: DocumentFileRecord?) {
        let row = try Row.fetchOne(db.cachedStatement(sql: Self.joinedSelect + " WHERE e.name = ?"), arguments: [name])
        let listed = try row.map(Self.listed)
        return (listed?.entry, listed?.file)
    }

    /// Up to `limit` listed documents after index position `position`, in index order (synchronously, for the status page).
    public func listedDocuments(after position: Int, limit: Int) throws(StoreError) -> [ListedDocument] {
        try read { db in try Self.listedDocuments(db, after: position, limit: limit) }
    }

    /// Up to `limit` listed documents after index position `position`, in index order.
    public func listedDocuments(after position: Int, limit: Int) async throws(StoreError) -> [ListedDocument] {
        try await read { db in try Self.listedDocuments(db, after: position, limit: limit) }
    }

    private static func listedDocuments(_ db: Database, after position: Int, limit: Int) throws -> [ListedDocument] {
        try Row.fetchAll(
            db.cachedStatement(sql: Self.joinedSelect + " WHERE e.position > ? ORDER BY e.position LIMIT ?"),
            arguments: [position, limit]
        ).map(Self.listed)
    }

    /// Calls `body` with every listed document in index order, from one consistent snapshot,
    /// holding one row at a time.
    public func forEachListedDocument(_ body: (ListedDocument) throws -> Void) throws(StoreError) {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: Self.joinedSelect + " ORDER BY e.position")
            while let row = try rows.next() { try body(try Self.listed(row)) }
        }
    }

    /// Calls `body` with every stored file record, one at a time.
    public func forEachDocumentFile(_ body: (DocumentFileRecord) throws -> Void) throws(StoreError) {
        try read { db in
            let files = try DocumentFileRecord.fetchCursor(db)
            while let file = try files.next() { try body(file) }
        }
    }

    /// Which of `fileNames` a stored record names (the file column is unique, so these are index lookups).
    public func referencedDocumentFiles(among fileNames: [String]) throws(StoreError) -> Set<String> {
        guard !fileNames.isEmpty else { return [] }
        return try read { db in
            let marks = Array(repeating: "?", count: fileNames.count).joined(separator: ",")
            return Set(try String.fetchAll(
                db, sql: "SELECT file_name FROM document_files WHERE file_name IN (\(marks))",
                arguments: StatementArguments(fileNames)))
        }
    }

    /// Stored files the last valid index no longer lists.
    public func unlistedDocumentFiles() throws(StoreError) -> [DocumentFileRecord] {
        try read { db in
            try DocumentFileRecord.fetchAll(db, sql: """
                SELECT * FROM document_files WHERE name NOT IN (SELECT name FROM document_entries)
                """)
        }
    }

    /// How many documents are listed, how many of those are stored, and their bytes (synchronously, for the status page).
    public func documentCounts() throws(StoreError) -> DocumentCounts {
        try read { db in try Self.documentCounts(db) }
    }

    /// How many documents are listed, how many of those are stored, and their bytes.
    public func documentCounts() async throws(StoreError) -> DocumentCounts {
        try await read { db in try Self.documentCounts(db) }
    }

    private static func documentCounts(_ db: Database) throws -> DocumentCounts {
        let listed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document_entries") ?? 0
        let row = try Row.fetchOne(db, sql: """
            SELECT COUNT(*) AS mirrored, COALESCE(SUM(f.size), 0) AS bytes
            FROM document_files f JOIN document_entries e ON e.name = f.name
            """)
        return DocumentCounts(listed: listed, mirrored: row?["mirrored"] ?? 0, bytes: row?["bytes"] ?? 0)
    }

    /// The newest `stored_at` of any stored file (the listing's `Last-Modified` when the index is older).
    public func newestDocumentStoredAt() throws(StoreError) -> Double? {
        try read { db in try Double.fetchOne(db, sql: "SELECT MAX(stored_at) FROM document_files") }
    }

    private static func listed(_ row: Row) throws -> ListedDocument {
        let entry = try DocumentEntryRecord(row: row)
        guard row["f_name"] as String? != nil else { return ListedDocument(entry: entry, file: nil) }
        let file = DocumentFileRecord(
            name: row["f_name"], fileName: row["f_file_name"], size: row["f_size"], sha256: row["f_sha256"],
            contentType: row["f_content_type"], createdAt: row["f_created_at"], updatedAt: row["f_updated_at"],
            storedAt: row["f_stored_at"], fetchedAt: row["f_fetched_at"], etag: row["f_etag"],
            lastModified: row["f_last_modified"])
        return ListedDocument(entry: entry, file: file)
    }
}

/// A new index arrives as it streams: its entries are staged a page at a time in a temporary table
/// of the writer's connection, and replace the listed ones in one transaction only once the whole
/// index proved valid (all or nothing, SPEC §4.3), so no pass holds 100,000 entries in memory.
extension Store {
    /// Starts staging a new index, dropping whatever an abandoned one left.
    public func beginStagingDocumentEntries() async throws(StoreError) {
        try await write { db in
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS staged_document_entries AS SELECT * FROM document_entries WHERE 0;
                DELETE FROM staged_document_entries;
                """)
        }
    }

    /// Adds a page of the new index's entries.
    public func stageDocumentEntries(_ entries: [DocumentEntryRecord]) async throws(StoreError) {
        guard !entries.isEmpty else { return }
        try await write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO staged_document_entries (name, position, url, size, sha256, content_type, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for entry in entries {
                try statement.execute(arguments: [
                    entry.name, entry.position, entry.url, entry.size, entry.sha256, entry.contentType,
                    entry.createdAt?.timeIntervalSince1970, entry.updatedAt?.timeIntervalSince1970,
                ])
            }
        }
    }

    /// Makes the staged entries the listed ones, with the index's item record, in one transaction;
    /// with `upstream`, that URL becomes the mirror's recorded upstream in the same transaction (SPEC §4.9).
    public func commitStagedDocumentEntries(item: ItemRecord, adopting upstream: String? = nil) async throws(StoreError) {
        try await write { db in
            if let upstream { try Self.adopt(upstream: upstream, resource: DocumentEntryRecord.resource, in: db) }
            try db.execute(sql: """
                DELETE FROM document_entries;
                INSERT INTO document_entries SELECT * FROM staged_document_entries;
                DELETE FROM staged_document_entries;
                """)
            try item.save(db)
        }
    }

    /// Forgets a staged index that was refused.
    public func discardStagedDocumentEntries() async throws(StoreError) {
        try await write { db in try db.execute(sql: "DELETE FROM staged_document_entries") }
    }
}
