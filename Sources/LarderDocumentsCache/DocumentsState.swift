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
        /// nil until rendered after the last change.
        var listing: PreparedAnswer?
        /// Bumped by every change of the listing; a render made from older contents is not kept.
        var listingGeneration = 0
        var indexUpdatedAt: Date?
        /// The last download error of each document whose latest download failed (for `/status`).
        var failures: [String: String] = [:]
        /// Bumped by every change of the entries, the files or the failures (the status page renders once per change).
        var revision = 0
    }

    private let contents: Mutex<Contents>

    init(entries: [DocumentEntryRecord]?, files: [DocumentFileRecord], indexUpdatedAt: Date?) {
        var initial = Contents(indexUpdatedAt: indexUpdatedAt)
        initial.entries = entries
        initial.byName = Dictionary(uniqueKeysWithValues: (entries ?? []).map { ($0.name, $0) })
        initial.files = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) })
        contents = Mutex(initial)
    }

    var hasIndex: Bool { contents.withLock { $0.entries != nil } }

    var entries: [DocumentEntryRecord] { contents.withLock { $0.entries ?? [] } }

    var files: [String: DocumentFileRecord] { contents.withLock { $0.files } }

    /// The `/documents` answer, nil while no index was ever accepted. Rendered on first use after a
    /// change rather than at start, so a warm start with 10,000 documents is ready at once.
    var listing: PreparedAnswer? {
        let pending = contents.withLock { contents -> (entries: [DocumentEntryRecord], Contents, Int)? in
            guard contents.listing == nil, let entries = contents.entries else { return nil }
            return (entries, contents, contents.listingGeneration)
        }
        guard let (entries, snapshot, generation) = pending else { return contents.withLock { $0.listing } }
        let answer = Self.render(entries, snapshot.files, snapshot.indexUpdatedAt)
        return contents.withLock { contents in
            if contents.listingGeneration == generation { contents.listing = answer }
            return answer
        }
    }

    /// The entry of `name` and its file, if any.
    func lookup(_ name: String) -> (entry: DocumentEntryRecord?, file: DocumentFileRecord?) {
        contents.withLock { ($0.byName[name], $0.files[name]) }
    }

    func setIndex(_ entries: [DocumentEntryRecord], updatedAt: Date) {
        contents.withLock { contents in
            contents.entries = entries
            contents.byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })
            contents.indexUpdatedAt = updatedAt
            contents.revision += 1
        }
    }

    func setFile(_ file: DocumentFileRecord) {
        contents.withLock { contents in
            contents.files[file.name] = file
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

    /// Forgets `file` if it is still the document's current copy.
    func removeFile(_ file: DocumentFileRecord) {
        contents.withLock { contents in
            if contents.files[file.name]?.fileName == file.fileName {
                contents.files[file.name] = nil
                contents.revision += 1
            }
        }
    }

    var revision: Int { contents.withLock { $0.revision } }

    /// The entries, files and failures as one consistent reading.
    var reading: (entries: [DocumentEntryRecord], files: [String: DocumentFileRecord], failures: [String: String]) {
        contents.withLock { ($0.entries ?? [], $0.files, $0.failures) }
    }

    func removeFiles(_ names: [String]) {
        contents.withLock { contents in
            for name in names { contents.files[name] = nil }
            contents.revision += 1
        }
    }

    /// The listing changed (after a sync): the next read renders it anew.
    func listingChanged() {
        contents.withLock { contents in
            contents.listing = nil
            contents.listingGeneration += 1
        }
    }

    private static func render(
        _ entries: [DocumentEntryRecord], _ files: [String: DocumentFileRecord], _ updatedAt: Date?
    ) -> PreparedAnswer {
        let newestFile = files.values.map(\.storedAt).max()
        let lastModified = [updatedAt, newestFile].compactMap { $0 }.max() ?? Date(timeIntervalSince1970: 0)
        let body = DocumentsListing.render(entries: entries, files: files, generatedAt: updatedAt ?? lastModified)
        return PreparedAnswer(Representation(bytes: body, lastModified: lastModified))
    }
}
