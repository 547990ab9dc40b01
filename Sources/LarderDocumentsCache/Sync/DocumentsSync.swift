import Foundation
import LarderConfig
import LarderDocuments
import LarderFormats
import LarderFreshness
import LarderServing
import LarderStore
import LarderUpstream
import Logging

/// One sync of the mirror (SPEC §1's list-then-files updater, done right): revalidate the index,
/// accept it whole or not at all, download what is missing or stale in parallel, then remove what
/// the valid index no longer lists. Its store and file work runs off the cooperative pool (`BlockingPool`).
struct DocumentsSync: Sendable {
    static let indexKey = "index"

    let upstreams: DocumentUpstreams
    /// What the store records as the documents' source (SPEC §4.9, the list as a set).
    let upstreamIdentity: String
    let store: Store
    let client: any UpstreamTransport
    let state: DocumentsState
    let downloads: DocumentDownloads
    let mirror: MirrorDirectory
    let sweep: MirrorSweep
    let listing: ListingCache
    let indexMaxBytes: Int
    /// Pending while the mirror came from a previous list of upstreams (SPEC §4.9).
    let upstreamSwitch: UpstreamSwitch
    let events: any CacheEvents
    let logger: Logger
    /// `--documents-schedule follow`'s schedule, told each index answer's freshness; nil under `ttl`.
    var follow: FollowSchedule? = nil

    func run(contactAt now: Date) async -> Result<DocumentsRefreshOutcome, RefreshError> {
        var outcome = DocumentsRefreshOutcome()
        // Read once: the index commit completes the switch, and this sync's downloads still treat
        // every mirrored file as the previous upstream's.
        let switching = upstreamSwitch.isPending
        let sweep = sweep
        await store.blocking.run { sweep.runOnce() }
        do {
            outcome.indexNotModified = try await refreshIndex(now, switching: switching)
        } catch let error as RefreshError {
            return .failure(error)
        } catch {
            return .failure(RefreshError(.store, "\(error)"))
        }
        do {
            try await downloadAll(indexChanged: !outcome.indexNotModified, switching: switching, now: now, into: &outcome)
            outcome.removed += try await store.blocking.run { () throws(StoreError) in try removeUnlisted() }
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

    /// How one upstream's answer for the index ended.
    private enum IndexAnswer: Sendable {
        case notModified
        case accepted
    }

    /// Fetches the index from the first healthy upstream, moving to the next on an error, a timeout,
    /// a refused index or one older than the held one (SPEC §4.12, `UpstreamFailover`); true on a 304
    /// (or when every answer was older than the held index). When none answers, throws the failover's
    /// error and changes nothing.
    private func refreshIndex(_ now: Date, switching: Bool) async throws -> Bool {
        let store = store
        let item = try await store.item(resource: DocumentEntryRecord.resource, key: Self.indexKey)
        let order = upstreams.order(at: now)
        let failover = UpstreamFailover(resource: "documents", logger: logger)
        let outcome: UpstreamFailover.Outcome<IndexAnswer> = await failover.ask(upstreams.pool.candidates(order), at: now) {
            position throws(RefreshError) in
            do {
                return try await fetchIndex(from: order[position], held: item, now: now, switching: switching)
            } catch {
                throw (error as? RefreshError) ?? RefreshError(.store, "\(error)")
            }
        }
        switch outcome {
        case .delivered(let answer, _):
            return answer == .notModified
        case .declined:
            // Every answer was older than the held index: it stays, and the check counts as contact.
            try await store.touch(
                resource: DocumentEntryRecord.resource, key: Self.indexKey, fetchedAt: now, etag: nil, lastModified: nil)
            return true
        case .failed(let error):
            throw error
        }
    }

    /// Fetches the index from one upstream (conditionally when the held index came from it), reading
    /// it as it streams in, and commits it when it is taken. A refused index throws and changes nothing.
    private func fetchIndex(
        from index: Int, held item: ItemRecord?, now: Date, switching: Bool
    ) async throws -> UpstreamFailover.Answer<IndexAnswer> {
        let upstream = upstreams.upstreams[index]
        let label = upstreams.labels[index]
        let store = store
        // The stored validators are the source's: another upstream's ETag says nothing.
        let conditional = state.hasIndex && !switching && upstreams.indexSource == index
        let validators = conditional ? UpstreamValidators(etag: item?.etag, lastModified: item?.lastModified) : .none
        guard let indexURL = URL(string: upstream.url) else {
            throw RefreshError(.store, "the documents URL cannot be read as a URL")
        }
        let stream = DocumentIndexStream(format: upstream.format, indexURL: indexURL, maxBytes: indexMaxBytes)
        let intake = try await IndexIntake(store: store, stream: stream)
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
                events.upstreamFetch(.documents, upstream: label, outcome: .refused)
                throw RefreshError(.invalidPayload, "refused the documents index: \(refusal.message)")
            }
            if let error = error as? UpstreamError {
                events.upstreamFetch(.documents, upstream: label, outcome: .error)
                throw RefreshError(error.gaveNoAnswer ? .unreachable : .upstreamError, "index: \(error.message)")
            }
            throw RefreshError(.store, "index: \(error)")
        }
        switch answer {
        case .notModified(let sent, let freshFor):
            await intake.discard()
            follow?.follow(freshFor)
            // Asked without validators (a new upstream, or one the held index did not come from), a 304
            // confirms nothing Larder holds: it is no index of it.
            guard conditional || !(switching || upstreams.indexSource != index) else {
                events.upstreamFetch(.documents, upstream: label, outcome: .error)
                throw RefreshError(.upstreamError, "index: the upstream answered 304 to an unconditional request")
            }
            events.upstreamFetch(.documents, upstream: label, outcome: .notModified)
            try await store.touch(
                resource: DocumentEntryRecord.resource, key: Self.indexKey, fetchedAt: now,
                etag: sent.etag, lastModified: sent.lastModified)
            return .delivered(.notModified, served: nil)
        case .streamed(let body):
            events.upstreamFetch(.documents, upstream: label, outcome: .fetched)
            follow?.follow(body.freshFor)
            // Never regress: an index generated before the one we hold replaces nothing (SPEC §4.3),
            // whichever upstream either came from (§4.12); not across a change of upstreams (§4.9), and
            // a held `generated_at` after now decides nothing (§4.11): it would refuse every real index.
            if !switching, let generated = generatedAt, let held = item?.updatedAt, held <= now, state.hasIndex,
               generated < held {
                await intake.discard()
                events.regressionRefused(.documents)
                logger.warning("documents: refused an index from \(label) generated at \(generated), older than the held one (\(held))")
                return .declined(RefreshError(
                    .invalidPayload, "index: generated at \(RFC3339.string(generated, milliseconds: false)), older than the held one (\(RFC3339.string(held, milliseconds: false)))"))
            }
            let updatedAt = generatedAt ?? now
            let item = ItemRecord(
                resource: DocumentEntryRecord.resource, key: Self.indexKey, fetchedAt: now, updatedAt: updatedAt,
                etag: body.validators.etag, lastModified: body.validators.lastModified)
            let adopting = switching ? upstreamIdentity : nil
            try await store.commitStagedDocumentEntries(item: item, adopting: adopting)
            upstreams.indexSource = index
            state.setIndex(updatedAt: updatedAt, storedAt: now)
            if switching { upstreamSwitch.completed() }
            return .delivered(.accepted, served: "index generated \(RFC3339.string(updatedAt, milliseconds: false))")
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
        while let document = try await counting.next() {
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
                while let document = try await handing.next() {
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
