import Foundation
import GRDB
import LarderStore
import LarderTesting
import Testing

/// Instants survive the store to the millisecond, stored as seconds since 1970 (the schema's REAL),
/// whichever way a record is written and read.
@Suite("Store: instants")
struct InstantTests {
    static let created = Date(timeIntervalSince1970: 1_790_845_200)  // 2026-10-01T09:00:00Z
    static let updated = Date(timeIntervalSince1970: 1_795_022_525.123)  // 2026-11-18T17:22:05.123Z
    static let stored = Date(timeIntervalSince1970: 1_795_527_101.137)

    static let entry = DocumentEntryRecord(
        name: "a.txt", position: 0, url: "http://127.0.0.1:1/a.txt", size: 5, sha256: nil, contentType: "text/plain",
        createdAt: created, updatedAt: updated)
    static let file = DocumentFileRecord(
        name: "a.txt", fileName: "a.txt~0123456789abcdef", size: 5, sha256: String(repeating: "ab", count: 32),
        contentType: "text/plain", createdAt: created, updatedAt: updated, storedAt: stored, fetchedAt: stored,
        etag: nil, lastModified: nil)
    static let item = ItemRecord(
        resource: .documents, key: "index", fetchedAt: stored, createdAt: created, updatedAt: updated, etag: "\"i\"")

    /// Writes one entry, file and item record, and closes the store.
    static func write(in directory: String) async throws {
        let store = try Store(directory: directory, logger: quietLogger)
        try store.prepare(resource: .documents, upstreamURL: "http://127.0.0.1:1/index.json")
        try await store.beginStagingDocumentEntries()
        try await store.stageDocumentEntries([entry])
        try await store.commitStagedDocumentEntries(item: item)
        try store.commitDocumentFiles([file])
    }

    /// Reopens the store and expects every instant back as written.
    static func expectInstantsRead(in directory: String) throws {
        let store = try Store(directory: directory, logger: quietLogger)
        let (listedEntry, storedFile) = try store.document(named: "a.txt")
        let entry = try #require(listedEntry)
        let file = try #require(storedFile)
        let item = try #require(try store.item(resource: .documents, key: "index"))
        for (read, written) in [
            (entry.createdAt, created), (entry.updatedAt, updated), (file.createdAt, created), (file.updatedAt, updated),
            (file.storedAt, stored), (file.fetchedAt, stored), (item.createdAt, created), (item.updatedAt, updated),
        ] as [(Date?, Date)] {
            // To the millisecond: GRDB's text form kept milliseconds.
            #expect(read.map { abs($0.timeIntervalSince(written)) < 0.001 } == true, "\(String(describing: read)) ≠ \(written)")
        }
    }

    /// The storage class of every instant column that holds a value.
    static func storageClasses(in directory: String) throws -> Set<String> {
        let database = try DatabaseQueue(path: directory + "/" + Store.fileName)
        return try database.read { db in
            var classes: Set<String> = []
            for (table, columns) in [("items", ["fetched_at", "created_at", "updated_at"]),
                                     ("document_entries", ["created_at", "updated_at"]),
                                     ("document_files", ["created_at", "updated_at", "stored_at", "fetched_at"])] {
                for column in columns {
                    let sql = "SELECT DISTINCT typeof(\(column)) FROM \(table) WHERE \(column) IS NOT NULL"
                    classes.formUnion(try String.fetchAll(db, sql: sql))
                }
            }
            return classes
        }
    }

    @Test func theyRoundTripAcrossAReopenAsSeconds() async throws {
        try await withTemporaryDirectory("larder-instants") { directory in
            try await Self.write(in: directory)
            try Self.expectInstantsRead(in: directory)
            #expect(try Self.storageClasses(in: directory) == ["real"])
        }
    }

    /// Before v4 the records wrote GRDB's text form, which the hand-written readers took for a number
    /// (the year: 1970-01-01T00:33:46Z for anything in 2026). A cache written so is migrated in place.
    @Test func textInstantsOfAnEarlierVersionAreMigratedToSeconds() async throws {
        try await withTemporaryDirectory("larder-instants") { directory in
            try await Self.write(in: directory)
            let database = try DatabaseQueue(path: directory + "/" + Store.fileName)
            try await database.write { db in
                try db.execute(sql: "UPDATE document_entries SET created_at = '2026-10-01 09:00:00.000', updated_at = '2026-11-18 17:22:05.123'")
                try db.execute(sql: "UPDATE document_files SET created_at = '2026-10-01 09:00:00.000', updated_at = '2026-11-18 17:22:05.123'")
                try db.execute(sql: "UPDATE items SET created_at = '2026-10-01 09:00:00.000', updated_at = '2026-11-18 17:22:05.123'")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v4:%'")
            }
            try database.close()
            #expect(try Self.storageClasses(in: directory).contains("text"))
            try Self.expectInstantsRead(in: directory)
            #expect(try Self.storageClasses(in: directory) == ["real"])
        }
    }
}
