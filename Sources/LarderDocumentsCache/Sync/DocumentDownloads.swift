import Foundation
import LarderFreshness
import LarderStore

/// Runs document downloads: one at a time per name (a request and a sync share it), at most
/// `parallel` at once, and publishes each installed file to the served state.
struct DocumentDownloads: Sendable {
    typealias Result = Swift.Result<DocumentDownloader.Outcome, RefreshError>

    static let parallel = 4

    let downloader: DocumentDownloader
    let state: DocumentsState
    let flight = SingleFlight<String, Result>()

    /// Downloads one document, or joins its download in flight; nil when the caller was cancelled.
    func fetch(_ entry: DocumentEntryRecord, conditional: Bool, now: Date) async -> Result? {
        await flight.run(entry.name) {
            let current = state.lookup(entry.name).file
            switch await downloader.download(entry, current: current, conditional: conditional, now: now) {
            case .success(let (outcome, file)):
                state.setFile(file)
                return .success(outcome)
            case .failure(let error):
                state.recordFailure(entry.name, error.message)
                return .failure(error)
            }
        }
    }

    /// Downloads every `(entry, conditional)` with at most `parallel` running.
    func run(_ work: [(DocumentEntryRecord, Bool)], now: Date) async -> [Result] {
        await withTaskGroup(of: Result.self) { group in
            var results: [Result] = []
            var pending = work[...]
            for _ in 0..<min(Self.parallel, pending.count) {
                let (entry, conditional) = pending.removeFirst()
                group.addTask { await fetch(entry, conditional: conditional, now: now) ?? .failure(.cancelled) }
            }
            while let result = await group.next() {
                results.append(result)
                if let (entry, conditional) = pending.popFirst() {
                    group.addTask { await fetch(entry, conditional: conditional, now: now) ?? .failure(.cancelled) }
                }
            }
            return results
        }
    }
}

extension RefreshError {
    static let cancelled = RefreshError(.upstreamError, "cancelled: larder is stopping")
}
