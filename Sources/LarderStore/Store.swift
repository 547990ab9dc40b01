import Foundation
import GRDB
public import Logging

/// Larder's SQLite store in the cache directory: metadata, rate sets and history (document bodies live as files).
///
/// One `DatabasePool` in WAL mode: readers never wait for the writer, and every replacement is one
/// transaction, so a kill at any moment leaves the old data or the new, never a mix.
public final class Store: Sendable {
    /// The meaning of the stored data; bump it when the same tables would be read differently,
    /// and every cache written by an older Larder is cleared at start instead of misread (SPEC §4.9).
    public static let formatVersion = 1
    /// The database file's name inside the cache directory.
    public static let fileName = "larder.sqlite"

    let pool: DatabasePool
    /// The process's pool for file and parse work (and the few jobs that pair it with a sync store call).
    public let blocking: BlockingPool
    /// GRDB's bound on reader connections (its default); with the writer, at most 1 + 5 store accesses
    /// run at once, each on a serial queue of GRDB's that targets `queue`.
    static let maximumReaderCount = 5
    /// Where GRDB runs the store's async reads and writes: concurrent, as a `DatabasePool` needs, and
    /// not a serial queue's own (those take libdispatch's overcommit threads, one per busy queue and
    /// more: 26–27 threads in `ThreadBoundTests`' burst), so its threads come from libdispatch's bounded
    /// pool of its QoS, apart from the default-QoS one Swift's tasks run on.
    static let queue = DispatchQueue(label: "larder.store", qos: .userInitiated, attributes: .concurrent)
    /// Each connection's page cache, in KiB.
    static let pageCacheKiB = 512
    let logger: Logger

    /// Opens (creating when needed) the store in `directory`, migrates it, and clears every
    /// resource's data when the stored format version is not `formatVersion`. `blocking` is the
    /// process's pool (`LarderApplication` passes its own; a tool's store gets a small one of its own).
    public init(
        directory: String, formatVersion: Int = Store.formatVersion, blocking: BlockingPool = BlockingPool(threads: 2),
        logger: Logger
    ) throws(StoreError) {
        self.logger = logger
        self.blocking = blocking
        try Self.makeDirectory(directory)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Durable commits: a refresh acknowledged is a refresh kept, even across a power cut.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A small page cache per connection (SQLite's default is 2 MiB, and the pool opens up to
            // 6): hot answers are prepared bytes in memory, and the mirror's records are read a
            // document or a page at a time, so a larger cache only holds pages of a pass done once.
            try db.execute(sql: "PRAGMA cache_size = -\(Self.pageCacheKiB)")
        }
        configuration.busyMode = .timeout(5)
        configuration.maximumReaderCount = Self.maximumReaderCount
        configuration.targetQueue = Self.queue
        configuration.writeTargetQueue = Self.queue
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // A damaged file is reported, never repaired by deleting it: that would be silent data loss.
            let check = try pool.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer" }
            guard check == "ok" else {
                throw StoreError("the store \(path) is damaged (SQLite quick_check: \(check)); move it aside or delete it to start with an empty cache")
            }
            try Self.migrator.migrate(pool)
            try checkFormatVersion(formatVersion)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("cannot open the store \(path): \(error)")
        }
    }

    private func checkFormatVersion(_ expected: Int) throws {
        try pool.write { db in
            let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format_version'")
            guard stored != String(expected) else { return }
            if let stored {
                logger.notice("cache format version \(stored) is not \(expected): clearing the cache")
                for table in Self.dataTables {
                    try db.execute(sql: "DELETE FROM \(table)")
                }
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('format_version', ?)",
                arguments: [String(expected)])
        }
    }

    /// Creates `directory` and its parents (mode 0700), with the system's reason when it cannot.
    static func makeDirectory(_ directory: String) throws(StoreError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw StoreError("cannot create the cache directory \(directory): \(path): \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError("the cache directory \(directory) is not a directory")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw StoreError("the cache directory \(directory) is not writable: \(String(cString: strerror(errno)))")
        }
    }

    /// Records `url` as the resource's upstream when none is recorded; answers true when the cached
    /// data came from a different URL. Nothing is cleared (SPEC §4.9): the old copy is served, stale,
    /// until the new upstream's first complete copy replaces it (`adopt(upstream:…)` in that commit).
    @discardableResult
    public func prepare(resource: StoredResource, upstreamURL url: String) throws(StoreError) -> Bool {
        try write { db in
            let stored = try String.fetchOne(
                db, sql: "SELECT upstream_url FROM resources WHERE name = ?", arguments: [resource])
            if stored == nil {
                try db.execute(
                    sql: "INSERT INTO resources(name, upstream_url) VALUES (?, ?)", arguments: [resource, url])
            }
            return stored != nil && stored != url
        }
    }

    /// Inside a commit: `url` becomes the upstream the resource's data comes from.
    static func adopt(upstream url: String, resource: StoredResource, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO resources(name, upstream_url) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET upstream_url = excluded.upstream_url",
            arguments: [resource, url])
    }

    /// The format an `auto` upstream of `resource` was last read as, if recorded.
    public func detectedFormat(resource: StoredResource) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT format FROM resources WHERE name = ?", arguments: [resource])
        }
    }

    /// A write transaction, with GRDB's errors turned into a `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw StoreError("store write failed: \(error)")
        }
    }

    /// A read from a snapshot of the last committed state.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw StoreError("store read failed: \(error)")
        }
    }

    /// `write` through GRDB's async API: the caller suspends while the writer's queue runs it.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StoreError("store write failed: \(error)")
        }
    }

    /// `read` through GRDB's async API, on one of the bounded readers.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError("store read failed: \(error)")
        }
    }

    /// SQLite's own consistency check; "ok" when the file is sound.
    public func integrityCheck() throws(StoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }
}

/// A store that could not be opened, read or written; the message names the file and SQLite's reason.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
