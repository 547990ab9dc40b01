import Foundation
import LarderStore
import Logging
import Synchronization

/// The pass over every stored file that start-up does not wait for: run once, at the start of the
/// first sync, it drops records whose file is missing or damaged (the sync then fetches them again)
/// and deletes files no record names that predate this process (temporary files of an interrupted
/// download, files a batch renamed but never committed, bytes replaced just before a crash).
final class MirrorSweep: Sendable {
    let mirror: MirrorDirectory
    let store: Store
    let state: DocumentsState
    let logger: Logger
    /// Files made after this are this process's own work in progress, never swept.
    let startedAt: Date
    private let done = Mutex(false)
    /// Directory entries checked against the store at once.
    static let pageSize = 500

    init(mirror: MirrorDirectory, store: Store, state: DocumentsState, logger: Logger, startedAt: Date = Date()) {
        self.mirror = mirror
        self.store = store
        self.state = state
        self.logger = logger
        self.startedAt = startedAt
    }

    /// Sweeps the mirror the first time it is called; later calls return at once.
    func runOnce() {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        // Both passes hold a page at a time, never every name: memory stays flat at 100,000 documents.
        var damaged: [DocumentFileRecord] = []
        do {
            try store.forEachDocumentFile { file in
                if mirror.size(of: file.fileName) != file.size { damaged.append(file) }
            }
        } catch {
            logger.error("documents: cannot read the mirror's records to check its files: \(error)")
            return
        }
        for file in damaged { drop(file) }
        if !damaged.isEmpty {
            logger.warning("documents: \(damaged.count) stored file(s) missing or damaged; they will be fetched again")
        }
        var cleaned = 0
        do {
            try mirror.forEachPage(of: Self.pageSize) { names in
                let referenced = try store.referencedDocumentFiles(among: names)
                for name in names where !referenced.contains(name) {
                    guard let modified = mirror.modified(name), modified < startedAt else { continue }
                    mirror.remove(name)
                    cleaned += 1
                }
            }
        } catch {
            logger.error("documents: cannot read the mirror's records to clean its directory: \(error)")
        }
        if cleaned > 0 {
            logger.notice("documents: removed \(cleaned) temporary or unlisted file(s) from the mirror directory")
        }
    }

    /// Forgets a stored copy found missing or damaged, unless a newer copy replaced it meanwhile.
    func drop(_ file: DocumentFileRecord) {
        do {
            try store.removeDocumentFile(name: file.name, fileName: file.fileName)
        } catch {
            logger.error("documents: cannot drop the damaged copy of \(file.name): \(error)")
            return
        }
        state.removeFiles([file.name])
        mirror.remove(file.fileName)
    }
}
