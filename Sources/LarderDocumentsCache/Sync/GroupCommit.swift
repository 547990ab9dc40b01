import Foundation
import LarderFreshness
import LarderStore
import Logging
import Synchronization

/// Makes verified downloads durable in batches: their renames, one sync of their bytes and names
/// (`FileSystemSync`: `syncfs`, or each file's `fdatasync` when others have much unwritten) and one
/// SQLite transaction per batch instead of an fsync, a directory fsync and a commit per document. A batch commits when it holds `batchSize` downloads,
/// when its oldest has waited `maxDelay` (so a slow sync still shows progress), or when the sync ends.
/// A commit waits for the disk, so it runs off the cooperative pool (`BlockingPool`), its caller suspended.
///
/// A kill at any moment leaves only whole, committed documents listed: a file renamed but never
/// committed is named by no record, and start-up deletes it (`DocumentsCache.reconcile`).
final class GroupCommit: Sendable {
    static let batchSize = 256
    static let maxDelay: Duration = .seconds(1)

    private struct Pending {
        var batch: [StagedDownload] = []
        var oldest: ContinuousClock.Instant?
        /// Downloads that failed at their commit, kept for the sync to count.
        var failures: [String: RefreshError] = [:]
        /// Documents taken from the queue whose commit has not finished yet.
        var committing: [String: Int] = [:]
    }

    let mirror: MirrorDirectory
    let store: Store
    let state: DocumentsState
    let logger: Logger
    private let pending = Mutex(Pending())
    let observer: (any CommitObserver)?

    init(mirror: MirrorDirectory, store: Store, state: DocumentsState, observer: (any CommitObserver)?, logger: Logger) {
        self.mirror = mirror
        self.store = store
        self.state = state
        self.observer = observer
        self.logger = logger
    }

    /// Queues `staged`, committing the batch when it is full.
    func add(_ staged: StagedDownload) async {
        let full = pending.withLock { pending -> [StagedDownload]? in
            pending.batch.append(staged)
            if pending.oldest == nil { pending.oldest = .now }
            return pending.batch.count >= Self.batchSize ? Self.take(&pending) : nil
        }
        if let full { await commitTaken(full) }
    }

    /// Commits what is queued when its oldest has waited `maxDelay`.
    func flushIfDue() async {
        let due = pending.withLock { pending -> [StagedDownload]? in
            guard let oldest = pending.oldest, ContinuousClock.now - oldest >= Self.maxDelay else { return nil }
            return Self.take(&pending)
        }
        if let due { await commitTaken(due) }
    }

    /// Commits what is queued now if it holds `name`, or waits for the commit in flight that took it:
    /// a client is waiting for that document.
    func flush(holding name: String) async {
        let batch = pending.withLock { pending -> [StagedDownload]? in
            pending.batch.contains { $0.file.name == name } ? Self.take(&pending) : nil
        }
        if let batch { return await commitTaken(batch) }
        // A commit runs on the blocking pool and ends within the disk's time; polled, as this is rare.
        while pending.withLock({ $0.committing[name] != nil }) {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Commits everything queued now, and hands over every commit failure since the last call.
    func flush() async -> [String: RefreshError] {
        await commitTaken(pending.withLock { Self.take(&$0) })
        return pending.withLock { pending in
            defer { pending.failures = [:] }
            return pending.failures
        }
    }

    /// Commits one download at once, on its own: a client is waiting for it.
    func commitNow(_ staged: StagedDownload) async -> RefreshError? {
        await commitOnPool([staged]).first?.error
    }

    /// `commit(_:)` on the process's `BlockingPool`: renames, syncs and the transaction all wait for the disk.
    /// The transaction uses the store's synchronous API: it must follow the files' `fdatasync` in the same job.
    private func commitOnPool(_ batch: [StagedDownload]) async -> [(name: String, error: RefreshError)] {
        guard !batch.isEmpty else { return [] }
        return await store.blocking.run { self.commit(batch) }
    }

    /// Commits a batch `take` handed out, then marks its documents committed (or failed).
    private func commitTaken(_ batch: [StagedDownload]) async {
        let failed = await commitOnPool(batch)
        pending.withLock { pending in
            for staged in batch {
                let left = (pending.committing[staged.file.name] ?? 1) - 1
                pending.committing[staged.file.name] = left > 0 ? left : nil
            }
        }
        record(failed)
    }

    private static func take(_ pending: inout Pending) -> [StagedDownload] {
        defer {
            pending.batch = []
            pending.oldest = nil
        }
        for staged in pending.batch { pending.committing[staged.file.name, default: 0] += 1 }
        return pending.batch
    }

    private func record(_ failed: [(name: String, error: RefreshError)]) {
        guard !failed.isEmpty else { return }
        pending.withLock { pending in
            for (name, error) in failed { pending.failures[name] = error }
        }
    }

    /// Renames the batch's temporary files into place (linked ones are there already), syncs them
    /// (bytes, then names), records them in one transaction, then publishes them and deletes the copies
    /// they replace. The order is the durability: a power cut after the transaction finds every file it
    /// names whole.
    private func commit(_ batch: [StagedDownload]) -> [(name: String, error: RefreshError)] {
        guard !batch.isEmpty else { return [] }
        observer?.commitStarting()
        var failed: [(name: String, error: RefreshError)] = []
        var placed: [StagedDownload] = []
        for staged in batch {
            guard case .temporary(let temporary) = staged.bytes else {
                placed.append(staged)
                continue
            }
            do {
                try mirror.place(temporary: temporary, as: staged.file.fileName)
                placed.append(staged)
            } catch {
                mirror.remove(temporary)
                failed.append((staged.file.name, RefreshError(.store, "\(error)")))
            }
        }
        do {
            let written = placed.filter { $0.bytes != nil }.map(\.file)
            if !written.isEmpty { try mirror.syncFiles(written.map(\.fileName), bytes: written.reduce(0) { $0 + $1.size }) }
            observer?.filesSynced(written.map(\.fileName))
            try store.commitDocumentFiles(placed.map(\.file))
            for staged in placed {
                state.setFile(staged.file)
                // Only after the commit: a crash before it leaves the old copy listed and whole.
                if let old = staged.replaced, old != staged.file.fileName { mirror.remove(old) }
            }
        } catch {
            // The placed files stay on disk unlisted, and start-up deletes them; the old copies stay served.
            logger.error("documents: cannot commit \(placed.count) download(s): \(error)")
            failed += placed.map { ($0.file.name, RefreshError(.store, "\(error)")) }
        }
        for (name, error) in failed { state.recordFailure(name, error.message) }
        return failed
    }
}
