import Foundation
import LarderFreshness
import LarderStore
import Logging

/// Runs document downloads: one at a time per name (a request and a sync share it), at most
/// `parallel` at once for a sync, their commits batched by `GroupCommit`.
struct DocumentDownloads: Sendable {
    typealias Result = Swift.Result<DocumentDownloader.Outcome, RefreshError>

    /// Downloads of one sync at once, over the upstream client's keep-alive pool.
    static let parallel = 16
    /// How often a running sync logs its progress.
    static let progressInterval: Duration = .seconds(5)

    let downloader: DocumentDownloader
    let state: DocumentsState
    let commits: GroupCommit
    let progress: SyncProgress
    let logger: Logger
    /// One download per name; its jobs run under the background work, so a stop waits for them.
    let flight: SingleFlight<String, Result>

    /// Downloads one document for a waiting client, or joins its download in flight, and commits it at
    /// once; nil when the caller was cancelled.
    func fetch(_ entry: DocumentEntryRecord, conditional: Bool, now: Date) async -> Result? {
        let result = await flight.run(entry.name) {
            let current: DocumentFileRecord?
            do {
                current = try await state.lookup(entry.name).file
            } catch {
                return .failure(RefreshError(.store, "\(entry.name): \(error)"))
            }
            return await download(entry, current: current, conditional: conditional, now: now) { staged in
                await commits.commitNow(staged).map { .failure($0) } ?? .success(staged.outcome)
            }
        }
        // Joined a sync's download: it may wait in a batch; the client should not.
        if case .success = result, (try? await state.lookup(entry.name).file) ?? nil == nil {
            await commits.flush(holding: entry.name)
        }
        return result
    }

    /// One download of a sync: the entry, the copy it may replace, and whether to ask conditionally.
    typealias Work = (entry: DocumentEntryRecord, current: DocumentFileRecord?, conditional: Bool)

    /// Downloads every piece of work `next` hands out (about `total`, for the progress) with at most
    /// `parallel` running, committing in batches; every result is final (committed or failed) when
    /// this returns. Work is asked for as downloads finish, so it can be read from the store a page at a time.
    func run(total: Int, now: Date, next work: () async -> Work?) async -> [(name: String, result: Result)] {
        progress.start(total: total)
        defer { progress.stop() }
        var results = await withTaskGroup(of: (String, Result)?.self) { group in
            var results: [(name: String, result: Result)] = []
            func next() async -> Bool {
                guard let (entry, current, conditional) = await work() else { return false }
                group.addTask {
                    let result = await flight.run(entry.name) {
                        await download(entry, current: current, conditional: conditional, now: now) { staged in
                            await commits.add(staged)
                            return .success(staged.outcome)
                        }
                    }
                    return (entry.name, result ?? .failure(.cancelled))
                }
                return true
            }
            var running = 0
            while running < Self.parallel, await next() { running += 1 }
            // Commits a slow sync's batch in time, and says how far the sync is.
            group.addTask { await ticker(); return nil }
            while running > 0, let finished = await group.next() {
                guard let finished else { continue }
                results.append(finished)
                if !(await next()) { running -= 1 }
            }
            group.cancelAll()
            return results
        }
        let failures = await commits.flush()
        for index in results.indices {
            if let error = failures[results[index].name] { results[index].result = .failure(error) }
        }
        return results
    }

    /// One download, handed to `commit` when verified; counted in the progress either way.
    private func download(
        _ entry: DocumentEntryRecord, current: DocumentFileRecord?, conditional: Bool, now: Date,
        commit: (StagedDownload) async -> Result
    ) async -> Result {
        switch await downloader.download(entry, current: current, conditional: conditional, now: now) {
        case .success(let staged):
            progress.finished(bytes: staged.bytes == nil ? 0 : staged.file.size, failed: false)
            return await commit(staged)
        case .failure(let error):
            progress.finished(bytes: 0, failed: true)
            state.recordFailure(entry.name, error.message)
            return .failure(error)
        }
    }

    /// Until cancelled: commits a batch whose oldest waited long enough, and logs progress every few seconds.
    private func ticker() async {
        var lastLog = ContinuousClock.now
        while (try? await Task.sleep(for: GroupCommit.maxDelay / 4)) != nil {
            await commits.flushIfDue()
            guard ContinuousClock.now - lastLog >= Self.progressInterval else { continue }
            lastLog = .now
            let figures = progress.snapshot
            logger.info("documents: sync \(figures.done)/\(figures.total) downloads, \(figures.bytes) bytes, \(figures.failed) failed")
        }
    }
}

extension RefreshError {
    static let cancelled = RefreshError(.upstreamError, "cancelled: larder is stopping")
}
