import Foundation
import Glibc
import LarderFreshness
import LarderStore
import Logging
import Synchronization

/// The current rendering of `/documents`, made again by the sync after every change (before the sync
/// reports done, so a refresh's answer and the listing agree), and on the first request after a start.
final class ListingCache: Sendable {
    private struct Current {
        var file: ListingFile?
        /// Bumped by every change; a rendering of older contents is not kept.
        var generation = 0
    }

    let directory: MirrorDirectory
    let store: Store
    /// Where the index's `generated_at` (the listing's) is read.
    let state: DocumentsState
    /// Bounds the listing's `Last-Modified` at each rendering.
    let clock: any FreshnessClock
    let logger: Logger
    private let current = Mutex(Current())
    private let flight: SingleFlight<Int, ListingFile?>

    /// Uses `directory` (created, mode 0700) for the listing's files; those of earlier runs are deleted.
    /// Renderings run as jobs of `background`.
    init(
        directory: String, store: Store, state: DocumentsState, clock: any FreshnessClock, background: BackgroundWork,
        logger: Logger
    ) throws {
        flight = SingleFlight(background: background)
        // The listing is written by its own renderer, never staged as a download: nothing to probe.
        let directory = try MirrorDirectory(path: directory, unnamedFiles: false)
        self.directory = directory
        self.store = store
        self.state = state
        self.clock = clock
        self.logger = logger
        try directory.forEachPage(of: 500) { names in
            for name in names { directory.remove(name) }
        }
    }

    /// The listing as last rendered, nil until rendered since the start or the last failed rendering.
    var file: ListingFile? { current.withLock { $0.file } }

    /// The listing, rendered now (joining a rendering in flight) when there is none.
    func rendered() async -> ListingFile? {
        let generation = current.withLock { $0.file == nil ? $0.generation : nil }
        guard let generation else { return file }
        return await render(generation) ?? nil
    }

    /// The index or a file changed: renders the listing anew and replaces the old one with it.
    func changed() async {
        let generation = current.withLock { current in
            current.generation += 1
            return current.generation
        }
        _ = await render(generation)
    }

    private func render(_ generation: Int) async -> ListingFile?? {
        await flight.run(generation) { [self] in
            let made: ListingFile
            do {
                // Every listed record read, the JSON and its gzip written: off the cooperative pool.
                let (store, directory) = (store, directory)
                let (indexUpdatedAt, indexStoredAt, now) = (state.indexUpdatedAt, state.indexStoredAt, clock.now)
                made = try await store.blocking.run {
                    try ListingFile.render(
                        store: store, indexUpdatedAt: indexUpdatedAt, indexStoredAt: indexStoredAt, notAfter: now,
                        into: directory, generation: generation)
                }
            } catch {
                logger.error("documents: cannot render the listing: \(error)")
                // Stale now: the next request tries again rather than being served the old contents.
                let old = current.withLock { current -> ListingFile? in
                    guard current.generation == generation else { return nil }
                    defer { current.file = nil }
                    return current.file
                }
                old?.remove()
                return nil
            }
            let (kept, old) = current.withLock { current -> (Bool, ListingFile?) in
                guard current.generation == generation else { return (false, nil) }
                defer { current.file = made }
                return (true, current.file)
            }
            guard kept else {
                // Overtaken by a change: the rendering of the newer contents replaces the current one.
                made.remove()
                return current.withLock { $0.file }
            }
            old?.remove()
            return made
        }
    }
}
