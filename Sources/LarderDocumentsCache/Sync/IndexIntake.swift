import Foundation
import LarderDocuments
import LarderStore
import Synchronization

/// Takes an index body as it arrives: each chunk goes through `DocumentIndexStream`, and the
/// entries it completes are staged in the store a page at a time, so neither the body, nor a parse
/// tree, nor the list of entries is ever held whole. Nothing staged is listed until `commit`. The
/// staging writes go through the store's async API; the parse, a chunk at a time, runs on the cooperative pool.
final class IndexIntake: Sendable {
    /// Entries staged in one write.
    static let pageSize = 1000

    private struct State {
        var stream: DocumentIndexStream
        var page: [DocumentEntryRecord] = []
        var position = 0
        /// Why the body was refused, when it was: the upstream client reports a sink's error only as
        /// "could not store the body".
        var refusal: DocumentIndexError?
    }

    let store: Store
    private let state: Mutex<State>

    init(store: Store, stream: DocumentIndexStream) async throws(StoreError) {
        self.store = store
        state = Mutex(State(stream: stream))
        try await store.beginStagingDocumentEntries()
    }

    /// The index was refused, and why; nil while every byte so far was fine.
    var refusal: DocumentIndexError? { state.withLock { $0.refusal } }

    /// Reads the next chunk of the body, staging the entries it completes a page at a time.
    func feed(_ chunk: [UInt8]) async throws {
        let full = try state.withLock { state throws(DocumentIndexError) -> [DocumentEntryRecord]? in
            do throws(DocumentIndexError) {
                Self.add(try state.stream.feed(chunk), to: &state)
            } catch {
                state.refusal = error
                throw error
            }
            guard state.page.count >= Self.pageSize else { return nil }
            defer { state.page = [] }
            return state.page
        }
        if let full { try await stage(full) }
    }

    /// The body ended: checks the whole, stages the last entries and returns the index's `generated_at`.
    func finish() async throws -> Date? {
        let (generatedAt, last) = try state.withLock { state throws(DocumentIndexError) -> (Date?, [DocumentEntryRecord]) in
            do throws(DocumentIndexError) {
                let (generatedAt, documents) = try state.stream.finish()
                Self.add(documents, to: &state)
                defer { state.page = [] }
                return (generatedAt, state.page)
            } catch {
                state.refusal = error
                throw error
            }
        }
        try await stage(last)
        return generatedAt
    }

    private func stage(_ entries: [DocumentEntryRecord]) async throws(StoreError) {
        try await store.stageDocumentEntries(entries)
    }

    /// Forgets what was staged (a refused or regressing index); best effort, as the next intake
    /// starts by clearing it anyway.
    func discard() async {
        try? await store.discardStagedDocumentEntries()
    }

    private static func add(_ documents: [DocumentEntry], to state: inout State) {
        for entry in documents {
            state.page.append(DocumentEntryRecord(
                name: entry.name, position: state.position, url: entry.url.absoluteString, size: entry.size,
                sha256: entry.sha256, contentType: entry.contentType, createdAt: entry.createdAt,
                updatedAt: entry.updatedAt))
            state.position += 1
        }
    }
}
