import Foundation
import LarderConfig
import LarderDocuments
import LarderFreshness
import LarderServing
import LarderStore
import LarderUpstream
import Logging

/// One sync of the mirror (SPEC §1's list-then-files updater, done right): revalidate the index,
/// accept it whole or not at all, download what is missing or stale in parallel, then remove what
/// the valid index no longer lists. Its store and file work runs off the cooperative pool (`OffPool`).
struct DocumentsSync: Sendable {
    static let indexKey = "index"

    let upstream: UpstreamResource<DocumentsFormat>
    let store: Store
    let client: any UpstreamTransport
    let state: DocumentsState
    let downloads: DocumentDownloads
    let mirror: MirrorDirectory
    let sweep: MirrorSweep
    let listing: ListingCache
    let indexMaxBytes: Int
    /// Pending while the mirror came from a previous upstream URL (SPEC §4.9).
    let upstreamSwitch: UpstreamSwitch
    let events: any CacheEvents
    let logger: Logger

    func run(contactAt now: Date) async -> Result<DocumentsRefreshOutcome, RefreshError> {
        var outcome = DocumentsRefreshOutcome()
        // Read once: the index commit completes the switch, and this sync's downloads still treat
        // every mirrored file as the previous upstream's.
        let switching = upstreamSwitch.isPending
        let sweep = sweep
        await OffPool.run { sweep.runOnce() }
        do {
            outcome.indexNotModified = try await refreshIndex(now, switching: switching)
        } catch let error as RefreshError {
            return .failure(error)
        } catch {
            return .failure(RefreshError(.store, "\(error)"))
        }
        do {
            try await downloadAll(indexChanged: !outcome.indexNotModified, switching: switching, now: now, into: &outcome)
            outcome.removed += try await OffPool.run { () throws(StoreError) in try removeUnlisted() }
        } catch {
            return .failure(RefreshError(.store, "\(error)"))
        }
        // Rendered before the sync reports done, so a refresh's answer and the listing agree.
        if !outcome.indexNotModified || outcome.added + outcome.updated + outcome.removed > 0 {
            await listing.changed()
        } else if listing.file == nil {
            _ = await listing.rendered()
        }
        // The sync's pages of records and the index's parse are freed: give their memory back.
        MemoryTrim.releaseFreedMemory()
        if outcome.added + outcome.updated + outcome.removed + outcome.failed > 0 {
            logger.info("documents: sync added \(outcome.added), updated \(outcome.updated), removed \(outcome.removed), unchanged \(outcome.unchanged), failed \(outcome.failed)")
        }
        return .success(outcome)
    }

    /// Fetches the index conditionally, reading it as it streams in; true on a 304 (or an index older
    /// than the held one). A refused index throws and changes nothing.
    private func refreshIndex(_ now: Date, switching: Bool) async throws -> Bool {
        let store = store
        let item = try await OffPool.run { () throws(StoreError) in
            try store.item(resource: DocumentEntryRecord.resource, key: Self.indexKey)
        }
        let validators = state.hasIndex && !switching
            ? UpstreamValidators(etag: item?.etag, lastModified: item?.lastModified) : .none
        guard let indexURL = URL(string: upstream.url) else {
            throw RefreshError(.store, "the documents URL cannot be read as a URL")
        }
        let stream = DocumentIndexStream(format: upstream.format, indexURL: indexURL, maxBytes: indexMaxBytes)
        let intake = try await OffPool.run { () throws(StoreError) in try IndexIntake(store: store, stream: stream) }
        let answer: UpstreamStreamOutcome
        let generatedAt: Date?
        do {
            answer = try await client.stream(upstream.url, validators: validators, maxBytes: indexMaxBytes) { chunk in
                try await intake.feed(chunk)
            }
            generatedAt = if case .streamed = answer { try await intake.finish() } else { nil }
        } catch {
            await intake.discard()
            if let refusal = intake.refusal {
                events.upstreamFetch(.documents, outcome: .refused)
                throw RefreshError(.invalidPayload, "refused the documents index: \(refusal.message)")
            }
            if let error = error as? UpstreamError {
                events.upstreamFetch(.documents, outcome: .error)
                throw RefreshError(error.gaveNoAnswer ? .unreachable : .upstreamError, "index: \(error.message)")
            }
            throw RefreshError(.store, "index: \(error)")
        }
        switch answer {
        case .notModified(let sent):
            await intake.discard()
            // Asked without validators, a new upstream has nothing to confirm: a 304 is no index of it.
            guard !switching else {
                events.upstreamFetch(.documents, outcome: .error)
                throw RefreshError(.upstreamError, "index: the new upstream answered 304 to an unconditional request")
            }
            events.upstreamFetch(.documents, outcome: .notModified)
            try await OffPool.run { () throws(StoreError) in
                try store.touch(
                    resource: DocumentEntryRecord.resource, key: Self.indexKey, fetchedAt: now,
                    etag: sent.etag, lastModified: sent.lastModified)
            }
            return true
        case .streamed(let body):
            events.upstreamFetch(.documents, outcome: .fetched)
            // Never regress: an index generated before the one we hold replaces nothing (SPEC §4.3);
            // the rule compares copies of one upstream, so not across a change of URL (§4.9), and a
            // held `generated_at` after now decides nothing (§4.11): it would refuse every real index.
            if !switching, let generated = generatedAt, let held = item?.updatedAt, held <= now, state.hasIndex,
               generated < held {
                await intake.discard()
                events.regressionRefused(.documents)
                logger.warning("documents: refused an index generated at \(generated), older than the held one (\(held))")
                try await OffPool.run { () throws(StoreError) in
                    try store.touch(
                        resource: DocumentEntryRecord.resource, key: Self.indexKey, fetchedAt: now, etag: nil, lastModified: nil)
                }
                return true
            }
            let updatedAt = generatedAt ?? now
            let item = ItemRecord(
                resource: DocumentEntryRecord.resource, key: Self.indexKey, fetchedAt: now, updatedAt: updatedAt,
                etag: body.validators.etag, lastModified: body.validators.lastModified)
            let adopting = switching ? upstream.url : nil
            try await OffPool.run { () throws(StoreError) in
                try store.commitStagedDocumentEntries(item: item, adopting: adopting)
            }
            state.setIndex(updatedAt: updatedAt, storedAt: now)
            if switching { upstreamSwitch.completed() }
            return false
        }
    }

    /// Downloads, at most `DocumentDownloads.parallel` at once, every entry the rules say to fetch.
    /// The entries are read from the store a page at a time, twice: once to count the work (the
    /// progress's total), once to hand it out as downloads finish, so no pass holds the whole index.
    private func downloadAll(
        indexChanged: Bool, switching: Bool, now: Date, into outcome: inout DocumentsRefreshOutcome
    ) async throws {
        func decide(_ document: ListedDocument) -> DownloadRule.Decision {
            switching
                ? DownloadRule.decideAfterUpstreamChange(entry: document.entry, file: document.file)
                : DownloadRule.decide(entry: document.entry, file: document.file, indexChanged: indexChanged, now: now)
        }
        var total = 0
        var counting = ListedPages(store: store)
        while let document = try await counting.nextOffPool() {
            switch decide(document) {
            case .skip: outcome.unchanged += 1
            case .regression:
                outcome.unchanged += 1
                events.regressionRefused(.document)
                logger.warning("documents: \(document.entry.name): the index's timestamps are older than the mirrored copy's; kept")
            case .download: total += 1
            }
        }
        var handing = ListedPages(store: store)
        var readError: (any Error)?
        let results = await downloads.run(total: total, now: now) {
            do {
                while let document = try await handing.nextOffPool() {
                    if case .download(let conditional) = decide(document) {
                        return (document.entry, document.file, conditional)
                    }
                }
            } catch {
                readError = error
            }
            return nil
        }
        if let readError { throw readError }
        for (_, result) in results {
            switch result {
            case .success(.added): outcome.added += 1
            case .success(.updated): outcome.updated += 1
            case .success(.unchanged): outcome.unchanged += 1
            case .failure(let error):
                outcome.failed += 1
                logger.warning("documents: \(error.message)")
            }
        }
    }

    /// Removes files the (valid) index no longer lists: their records first, then the bytes; returns how many.
    private func removeUnlisted() throws(StoreError) -> Int {
        let gone = try store.unlistedDocumentFiles()
        guard !gone.isEmpty else { return 0 }
        try store.removeDocumentFiles(gone.map(\.name))
        state.removeFiles(gone.map(\.name))
        for file in gone { mirror.remove(file.fileName) }
        return gone.count
    }
}
