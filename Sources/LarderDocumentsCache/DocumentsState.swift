import Foundation
import LarderStore
import Synchronization

/// What the mirror holds right now, as far as memory needs to know: whether an index was accepted,
/// the documents whose latest download failed, and the few records looked up lately. Entries and
/// files stay in SQLite and are read a document (or a page) at a time, so memory does not grow
/// with the index (100,000 documents within 48 MiB).
final class DocumentsState: Sendable {
    /// One document's records, as a request needs them.
    typealias Lookup = (entry: DocumentEntryRecord?, file: DocumentFileRecord?)

    /// Records kept in memory for documents asked for lately; past it the set starts again empty.
    static let hotLimit = 4096

    private struct Contents {
        var hasIndex: Bool
        var indexUpdatedAt: Date?
        /// When Larder stored the index: no `Last-Modified` may be later (an upstream's clock or typo may be).
        var indexStoredAt: Date?
        /// The last download error of each document whose latest download failed (for `/status`).
        var failures: [String: String] = [:]
        /// Bumped by every change of the entries, the files or the failures (the status page renders once per change).
        var revision = 0
        var hot: [String: Lookup] = [:]
        var counts: (revision: Int, counts: DocumentCounts)?
    }

    let store: Store
    private let contents: Mutex<Contents>

    init(store: Store, hasIndex: Bool, indexUpdatedAt: Date?, indexStoredAt: Date?) {
        self.store = store
        contents = Mutex(Contents(hasIndex: hasIndex, indexUpdatedAt: indexUpdatedAt, indexStoredAt: indexStoredAt))
    }

    var hasIndex: Bool { contents.withLock { $0.hasIndex } }

    var indexUpdatedAt: Date? { contents.withLock { $0.indexUpdatedAt } }

    /// When the index was stored, the latest its `Last-Modified` may be.
    var indexStoredAt: Date? { contents.withLock { $0.indexStoredAt } }

    /// The entry of `name` and its file, if any: from memory when asked lately, else from the store
    /// (synchronously: a loop thread's answer, and the status page).
    func lookup(_ name: String) throws(StoreError) -> Lookup {
        let (found, revision) = hot(name)
        if let found { return found }
        return remember(name, try store.document(named: name), revision: revision)
    }

    /// The entry of `name` and its file, if any: from memory when asked lately, else from the store.
    func lookup(_ name: String) async throws(StoreError) -> Lookup {
        let (found, revision) = hot(name)
        if let found { return found }
        return remember(name, try await store.document(named: name), revision: revision)
    }

    private func hot(_ name: String) -> (Lookup?, revision: Int) {
        contents.withLock { ($0.hot[name], $0.revision) }
    }

    private func remember(_ name: String, _ read: Lookup, revision: Int) -> Lookup {
        contents.withLock { contents in
            // Kept only if nothing changed while the store was read (else it may already be outdated).
            guard contents.revision == revision else { return }
            if contents.hot.count >= Self.hotLimit { contents.hot.removeAll(keepingCapacity: true) }
            contents.hot[name] = read
        }
        return read
    }

    /// How many documents are listed and mirrored: counted by the store once per change
    /// (synchronously, for the status page's render on the blocking pool).
    func counts() throws(StoreError) -> DocumentCounts {
        let (cached, revision) = cachedCounts()
        if let cached { return cached }
        return remember(try store.documentCounts(), revision: revision)
    }

    /// How many documents are listed and mirrored: counted by the store once per change.
    func counts() async throws(StoreError) -> DocumentCounts {
        let (cached, revision) = cachedCounts()
        if let cached { return cached }
        return remember(try await store.documentCounts(), revision: revision)
    }

    private func cachedCounts() -> (DocumentCounts?, revision: Int) {
        contents.withLock { contents in
            (contents.counts.flatMap { $0.revision == contents.revision ? $0.counts : nil }, contents.revision)
        }
    }

    private func remember(_ counted: DocumentCounts, revision: Int) -> DocumentCounts {
        contents.withLock { contents in
            if contents.revision == revision { contents.counts = (revision, counted) }
        }
        return counted
    }

    /// A new index was committed to the store.
    func setIndex(updatedAt: Date, storedAt: Date) {
        contents.withLock { contents in
            contents.hasIndex = true
            contents.indexUpdatedAt = updatedAt
            contents.indexStoredAt = storedAt
            contents.hot.removeAll()
            contents.revision += 1
        }
    }

    /// A document's new bytes were committed to the store.
    func setFile(_ file: DocumentFileRecord) {
        contents.withLock { contents in
            contents.hot[file.name] = nil
            contents.failures[file.name] = nil
            contents.revision += 1
        }
    }

    func recordFailure(_ name: String, _ message: String) {
        contents.withLock { contents in
            contents.failures[name] = message
            contents.revision += 1
        }
    }

    /// Documents whose latest download failed, with the error (sorted by name).
    var failures: [(name: String, message: String)] {
        contents.withLock { $0.failures.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// The failure of each document whose latest download failed.
    var failureMessages: [String: String] { contents.withLock { $0.failures } }

    var revision: Int { contents.withLock { $0.revision } }

    /// Documents' records were removed from the store.
    func removeFiles(_ names: [String]) {
        contents.withLock { contents in
            for name in names { contents.hot[name] = nil }
            contents.revision += 1
        }
    }
}
