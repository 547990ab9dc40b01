import Foundation
import Glibc
import LarderFreshness
import LarderServing
import LarderStore
import LarderUpstream
import Logging

/// Downloads one document (SPEC §4.8): streamed to a temporary file in the mirror's directory,
/// verified against the index's `size` and `sha256`, then handed to `GroupCommit`, which renames it
/// into place, makes it durable and records it with others in one transaction.
struct DocumentDownloader: Sendable {
    /// What a download did.
    enum Outcome: Sendable, Equatable {
        case added, updated, unchanged
    }

    let mirror: MirrorDirectory
    let client: any UpstreamTransport
    let maxBytes: Int
    let events: any CacheEvents
    let logger: Logger

    /// Fetches `entry` (conditionally, with `current`'s validators, when `conditional`) and stages it for its commit.
    func download(
        _ entry: DocumentEntryRecord, current: DocumentFileRecord?, conditional: Bool, now: Date
    ) async -> Result<StagedDownload, RefreshError> {
        let temporary: (descriptor: Int32, fileName: String)
        do {
            temporary = try mirror.createTemporary(for: entry.name)
        } catch {
            return .failure(RefreshError(.store, "\(error)"))
        }
        let sink = HashingFileSink(descriptor: temporary.descriptor)
        var keepTemporary = false
        defer {
            close(temporary.descriptor)
            if !keepTemporary { mirror.remove(temporary.fileName) }
        }
        let validators = conditional && current != nil
            ? UpstreamValidators(etag: current?.etag, lastModified: current?.lastModified) : .none
        let outcome: UpstreamStreamOutcome
        do {
            outcome = try await client.stream(entry.url, validators: validators, maxBytes: maxBytes) { chunk in
                try sink.write(chunk)
            }
        } catch {
            events.upstreamFetch(.document, outcome: .error)
            return .failure(RefreshError(error.gaveNoAnswer ? .unreachable : .upstreamError, "\(entry.name): \(error.message)"))
        }
        switch outcome {
        case .notModified(let sent):
            events.upstreamFetch(.document, outcome: .notModified)
            guard var file = current else {
                return .failure(RefreshError(.upstreamError, "\(entry.name): a 304 for a document Larder does not hold"))
            }
            file.fetchedAt = now
            file.createdAt = entry.createdAt
            file.updatedAt = entry.updatedAt
            file.etag = sent.etag ?? file.etag
            file.lastModified = sent.lastModified ?? file.lastModified
            return .success(StagedDownload(file: file, outcome: .unchanged, temporary: nil, replaced: nil))
        case .streamed(let body):
            let (count, sha256) = sink.finish()
            let verified = (entry.size.map { $0 == count } ?? true) && (entry.sha256.map { $0 == sha256 } ?? true)
            events.upstreamFetch(.document, outcome: verified ? .fetched : .refused)
            if let size = entry.size, size != count {
                return .failure(RefreshError(.invalidPayload, "\(entry.name): \(count) bytes, but the index says \(size)"))
            }
            if let expected = entry.sha256, expected != sha256 {
                return .failure(RefreshError(.invalidPayload, "\(entry.name): sha256 \(sha256) is not the index's \(expected)"))
            }
            let fileName = MirrorDirectory.fileName(for: entry.name, sha256: sha256)
            let same = current?.fileName == fileName
            // Not synced here, on the cooperative pool: the batch's commit syncs its files side by side, off it.
            if !same { keepTemporary = true }
            let file = DocumentFileRecord(
                name: entry.name, fileName: fileName, size: count, sha256: sha256, contentType: entry.contentType,
                createdAt: entry.createdAt, updatedAt: entry.updatedAt, storedAt: same ? current!.storedAt : now,
                fetchedAt: now, etag: body.validators.etag, lastModified: body.validators.lastModified)
            return .success(StagedDownload(
                file: file, outcome: current == nil ? .added : same ? .unchanged : .updated,
                temporary: same ? nil : temporary.fileName, replaced: same ? nil : current?.fileName))
        }
    }
}

/// A verified download waiting for its durable commit.
struct StagedDownload: Sendable {
    /// The record committed for it.
    let file: DocumentFileRecord
    let outcome: DocumentDownloader.Outcome
    /// The verified temporary file renamed to `file.fileName` at the commit; nil when those bytes are
    /// already in place (a 304, or the same content again).
    let temporary: String?
    /// The previous copy's file, deleted only after the commit, so a crash leaves the old copy listed and whole.
    let replaced: String?
}
