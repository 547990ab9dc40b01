import Foundation
import Glibc
import LarderFreshness
import LarderServing
import LarderStore
import LarderUpstream
import Logging

/// Downloads one document (SPEC §4.8): streamed to an unnamed or temporary file in the mirror's
/// directory (`StagingFile`), verified against the index's `size` and `sha256`, then handed to
/// `GroupCommit`, which puts it in place, makes it durable and records it with others in one transaction.
struct DocumentDownloader: Sendable {
    /// What a download did.
    enum Outcome: Sendable, Equatable {
        case added, updated, unchanged
    }

    let mirror: MirrorDirectory
    let client: any UpstreamTransport
    let upstreams: DocumentUpstreams
    let maxBytes: Int
    let events: any CacheEvents
    let logger: Logger

    /// Fetches `entry` (conditionally, with `current`'s validators, when `conditional`) and stages it
    /// for its commit. A download that fails where the index lists it is tried at the same relative
    /// path on the other upstreams, in order (SPEC §4.12); the index's `size` and `sha256` decide,
    /// whichever upstream the bytes came from. Fails with every upstream's reason when none served it.
    func download(
        _ entry: DocumentEntryRecord, current: DocumentFileRecord?, conditional: Bool, now: Date
    ) async -> Result<StagedDownload, RefreshError> {
        let sources = upstreams.sources(for: entry.url, at: now)
        // A document's failure moves no upstream's health: the index's fetch judges that.
        let candidates = sources.map { UpstreamFailover.Candidate(label: $0.label, health: nil) }
        let outcome: UpstreamFailover.Outcome<StagedDownload> = await UpstreamFailover(resource: "documents", logger: nil)
            .ask(candidates, at: now) { position throws(RefreshError) in
                // A mirror's validators are not the listed upstream's: a fallback asks unconditionally.
                let staged = try await download(
                    entry, from: sources[position], current: current, conditional: conditional && position == 0,
                    fallback: position > 0, now: now
                ).get()
                if position > 0 { logger.debug("documents: \(entry.name): served by \(sources[position].label) after \(position) failed") }
                return .delivered(staged, served: nil)
            }
        switch outcome {
        case .delivered(let staged, _): return .success(staged)
        case .declined: return .failure(RefreshError(.invalidPayload, "\(entry.name): no upstream delivered"))
        case .failed(let error): return .failure(RefreshError(error.kind, "\(entry.name): \(error.message)"))
        }
    }

    /// One attempt from one upstream; a failure's message does not name the document. A `fallback`
    /// answered 304 failed: it was asked unconditionally, so the 304 confirms no bytes Larder holds.
    private func download(
        _ entry: DocumentEntryRecord, from source: (label: String, url: String), current: DocumentFileRecord?,
        conditional: Bool, fallback: Bool, now: Date
    ) async -> Result<StagedDownload, RefreshError> {
        let staging: StagingFile
        do {
            staging = try mirror.createStaging(for: entry.name)
        } catch {
            return .failure(RefreshError(.store, "\(error)"))
        }
        let sink = HashingFileSink(descriptor: staging.descriptor)
        var kept = false
        defer {
            if kept { close(staging.descriptor) } else { mirror.discard(staging) }
        }
        let validators = conditional && current != nil
            ? UpstreamValidators(etag: current?.etag, lastModified: current?.lastModified) : .none
        let outcome: UpstreamStreamOutcome
        do {
            outcome = try await client.stream(source.url, validators: validators, maxBytes: maxBytes) { chunk in
                try sink.write(chunk)
            }
        } catch {
            events.upstreamFetch(.document, upstream: source.label, outcome: .error)
            return .failure(RefreshError(error.gaveNoAnswer ? .unreachable : .upstreamError, error.message))
        }
        switch outcome {
        case .notModified(let sent, _):
            guard !fallback else {
                events.upstreamFetch(.document, upstream: source.label, outcome: .error)
                return .failure(RefreshError(.upstreamError, "a 304 to an unconditional request"))
            }
            events.upstreamFetch(.document, upstream: source.label, outcome: .notModified)
            guard var file = current else {
                return .failure(RefreshError(.upstreamError, "a 304 for a document Larder does not hold"))
            }
            file.fetchedAt = now
            file.createdAt = entry.createdAt
            file.updatedAt = entry.updatedAt
            file.etag = sent.etag ?? file.etag
            file.lastModified = sent.lastModified ?? file.lastModified
            return .success(StagedDownload(file: file, outcome: .unchanged, bytes: nil, replaced: nil))
        case .streamed(let body):
            let (count, sha256) = sink.finish()
            let verified = (entry.size.map { $0 == count } ?? true) && (entry.sha256.map { $0 == sha256 } ?? true)
            events.upstreamFetch(.document, upstream: source.label, outcome: verified ? .fetched : .refused)
            if let size = entry.size, size != count {
                return .failure(RefreshError(.invalidPayload, "\(count) bytes, but the index says \(size)"))
            }
            if let expected = entry.sha256, expected != sha256 {
                return .failure(RefreshError(.invalidPayload, "sha256 \(sha256) is not the index's \(expected)"))
            }
            let fileName = MirrorDirectory.fileName(for: entry.name, sha256: sha256)
            let same = current?.fileName == fileName
            // Not synced here, on the cooperative pool: the batch's commit syncs its files side by side, off it.
            var bytes: StagedBytes?
            if !same {
                do {
                    bytes = try mirror.stage(staging, as: fileName)
                } catch {
                    return .failure(RefreshError(.store, "\(error)"))
                }
                kept = true
            }
            let file = DocumentFileRecord(
                name: entry.name, fileName: fileName, size: count, sha256: sha256, contentType: entry.contentType,
                createdAt: entry.createdAt, updatedAt: entry.updatedAt, storedAt: same ? current!.storedAt : now,
                fetchedAt: now, etag: body.validators.etag, lastModified: body.validators.lastModified)
            return .success(StagedDownload(
                file: file, outcome: current == nil ? .added : same ? .unchanged : .updated,
                bytes: bytes, replaced: same ? nil : current?.fileName))
        }
    }
}

/// A verified download waiting for its durable commit.
struct StagedDownload: Sendable {
    /// The record committed for it.
    let file: DocumentFileRecord
    let outcome: DocumentDownloader.Outcome
    /// Where the verified bytes wait for the commit; nil when they are already in place (a 304, or the
    /// same content again).
    let bytes: StagedBytes?
    /// The previous copy's file, deleted only after the commit, so a crash leaves the old copy listed and whole.
    let replaced: String?
}
