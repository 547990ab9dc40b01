import Foundation
import LarderServing
import LarderStore
import Synchronization

/// What the mirror holds right now: the last valid index's entries, the files on disk, and the
/// `/documents` answer rendered from them. Readers take one lock and never see half an update.
final class DocumentsState: Sendable {
    private struct Contents {
        /// nil until an index was ever accepted.
        var entries: [DocumentEntryRecord]?
        var byName: [String: DocumentEntryRecord] = [:]
        var files: [String: DocumentFileRecord] = [:]
        var listing: PreparedAnswer?
        var indexUpdatedAt: Date?
        /// The last download error of each document whose latest download failed (for `/status`).
        var failures: [String: String] = [:]
    }

    private let contents: Mutex<Contents>

    init(entries: [DocumentEntryRecord]?, files: [DocumentFileRecord], indexUpdatedAt: Date?) {
        var initial = Contents(indexUpdatedAt: indexUpdatedAt)
        initial.entries = entries
        initial.byName = Dictionary(uniqueKeysWithValues: (entries ?? []).map { ($0.name, $0) })
        initial.files = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) })
        contents = Mutex(initial)
        renderListing()
    }

    var hasIndex: Bool { contents.withLock { $0.entries != nil } }

    var entries: [DocumentEntryRecord] { contents.withLock { $0.entries ?? [] } }

    var files: [String: DocumentFileRecord] { contents.withLock { $0.files } }

    var listing: PreparedAnswer? { contents.withLock { $0.listing } }

    /// The entry of `name` and its file, if any.
    func lookup(_ name: String) -> (entry: DocumentEntryRecord?, file: DocumentFileRecord?) {
        contents.withLock { ($0.byName[name], $0.files[name]) }
    }

    func setIndex(_ entries: [DocumentEntryRecord], updatedAt: Date) {
        contents.withLock { contents in
            contents.entries = entries
            contents.byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })
            contents.indexUpdatedAt = updatedAt
        }
    }

    func setFile(_ file: DocumentFileRecord) {
        contents.withLock { contents in
            contents.files[file.name] = file
            contents.failures[file.name] = nil
        }
    }

    func recordFailure(_ name: String, _ message: String) {
        contents.withLock { $0.failures[name] = message }
    }

    /// Documents whose latest download failed, with the error (sorted by name).
    var failures: [(name: String, message: String)] {
        contents.withLock { $0.failures.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    func removeFiles(_ names: [String]) {
        contents.withLock { contents in
            for name in names { contents.files[name] = nil }
        }
    }

    /// Renders `/documents` from the current entries and files (after an index change or a sync).
    func renderListing() {
        let (entries, files, updatedAt) = contents.withLock { ($0.entries, $0.files, $0.indexUpdatedAt) }
        guard let entries else { return }
        let newestFile = files.values.map(\.storedAt).max()
        let lastModified = [updatedAt, newestFile].compactMap { $0 }.max() ?? Date(timeIntervalSince1970: 0)
        let body = DocumentsListing.render(entries: entries, files: files, generatedAt: updatedAt ?? lastModified)
        let answer = PreparedAnswer(Representation(bytes: body, lastModified: lastModified))
        contents.withLock { $0.listing = answer }
    }
}
