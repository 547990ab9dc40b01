import Foundation
import LarderDocuments
import LarderFormats
import LarderFreshness
public import LarderHTTP
import LarderServing
import LarderStore

/// `GET /documents`, `GET /documents/{name}` and `POST /documents/refresh` (SPEC §3).
public struct DocumentsRoutes: Sendable {
    let cache: DocumentsCache
    let adminToken: BearerToken?
    /// Which web origins may read the mirror: none by default, as it may hold private documents (SPEC §3).
    let cors: CORSPolicy

    public init(cache: DocumentsCache, adminToken: String?, cors: CORSPolicy = .none) {
        self.cache = cache
        self.adminToken = adminToken.map(BearerToken.init)
        self.cors = cors
    }

    public func register(on router: inout Router) {
        router.add(.get, "/documents", reads: FileAnswer.requestHeaders, cors: cors, .adaptive { request in
            if cache.state.hasIndex {
                let freshness = cache.refresher.freshness()
                cache.refresher.refreshIfDue(freshness)
                cache.events.hit(.documents, stale: freshness.isExpired)
                if let listing = cache.listing.file,
                   let response = listing.response(for: request, state: state(freshness, fetchedAt: listing.identityRepresentation.lastModified)) {
                    return .now(response)
                }
            } else {
                cache.events.miss(.documents)
            }
            // Not rendered since the start (or its files replaced this instant): rendered once, off the server's thread.
            return .later { request in
                if !cache.state.hasIndex { await waitForIndex() }
                guard cache.state.hasIndex else { return indexUnavailable() }
                guard let listing = await cache.listing.rendered(),
                      let response = listing.response(
                        for: request, state: state(cache.refresher.freshness(), fetchedAt: listing.identityRepresentation.lastModified))
                else {
                    return HTTPError.serviceUnavailable("the listing cannot be rendered (see the log)", retryAfterSeconds: 5)
                        .response
                }
                return response
            }
        })
        router.add(.get, "/documents/:name", cors: cors, .adaptive { request in
            let name = request.parameters["name"] ?? ""
            guard DocumentName.isValid(name) else {
                return .now(HTTPError.badRequest("'\(name.prefix(60))' is not a document name").response)
            }
            guard cache.state.hasIndex else {
                return .later { request in
                    await waitForIndex()
                    guard cache.state.hasIndex else { return indexUnavailable() }
                    return await document(request, name: name)
                }
            }
            let freshness = cache.refresher.freshness()
            cache.refresher.refreshIfDue(freshness)
            let entry: DocumentEntryRecord?, file: DocumentFileRecord?
            do {
                (entry, file) = try cache.state.lookup(name)
            } catch let error as StoreError {
                return .now(storeUnreadable(error))
            } catch {
                return .now(storeUnreadable(StoreError("\(error)")))
            }
            guard let entry else { return .now(notListed(name)) }
            if let file, let response = serve(request, entry: entry, file: file, freshness) {
                cache.events.hit(.document, stale: freshness.isExpired)
                return .now(response)
            }
            cache.events.miss(.document)
            return .later { request in await document(request, name: name) }
        })
        router.add(.post, "/documents/refresh", .suspending { request in
            if let refusal = adminToken?.refusal(for: request) { return refusal.response }
            switch await cache.refresher.refresh() {
            case .success(let outcome): return DocumentsRefreshAnswer.ok(outcome)
            case .failure(let error): return error.response(unchanged: "the mirror is")
            case nil:
                return HTTPError.serviceUnavailable("the sync was cancelled: larder is stopping", retryAfterSeconds: 5)
                    .response
            }
        })
    }

    /// The slow path of `/documents/{name}`: fetches a listed document that is not mirrored yet. On
    /// Swift's cooperative pool, so its store reads go through the store's async API.
    private func document(_ request: Request, name: String) async -> Response {
        let state = cache.state
        let entry: DocumentEntryRecord?, file: DocumentFileRecord?
        do {
            (entry, file) = try await state.lookup(name)
        } catch {
            return storeUnreadable(error)
        }
        guard let entry else { return notListed(name) }
        if let file, let response = serve(request, entry: entry, file: file, cache.refresher.freshness()) {
            return response
        }
        let result = await cache.fetchOnDemand(entry, unservable: file)
        if let file = (try? await state.lookup(name).file) ?? nil,
           let response = serve(request, entry: entry, file: file, cache.refresher.freshness()) {
            return response
        }
        let reason: String
        switch result {
        case .failure(let error): reason = "the upstream fetch failed: \(error.message)"
        case .success, nil: reason = "its fetch from the upstream is still running"
        }
        return HTTPError.serviceUnavailable("\(name) is listed but not mirrored yet; \(reason)", retryAfterSeconds: 5)
            .response
    }

    /// Answers from the file on disk; nil when the file vanished (replaced this instant).
    private func serve(
        _ request: Request, entry: DocumentEntryRecord, file: DocumentFileRecord, _ freshness: Freshness
    ) -> Response? {
        guard let source = cache.mirror.source(for: file.fileName, size: file.size) else { return nil }
        let representation = FileRepresentation(
            contentType: ContentTypePolicy.served(entry.contentType ?? file.contentType),
            etag: "\"" + file.sha256.prefix(32) + "\"",
            // The upstream's `updated_at`, but never after Larder stored the bytes, nor after now (a
            // clock that went back since): else a Last-Modified after Date (RFC 9110 §8.8.2.1).
            lastModified: WholeSeconds.since1970(min(file.updatedAt ?? file.storedAt, file.storedAt, freshness.now)))
        return FileAnswer.response(
            for: request, source: source, representation: representation,
            state: state(freshness, fetchedAt: WholeSeconds.since1970(file.fetchedAt)))
    }

    /// The cache state of anything the index's freshness covers.
    private func state(_ freshness: Freshness, fetchedAt fallback: Int) -> CacheState {
        CacheState(freshness, fallback: Date(timeIntervalSince1970: TimeInterval(fallback)))
    }

    private func waitForIndex() async {
        _ = await cache.refresher.refresh(waitingAtMost: DocumentsCache.coldWait) { !cache.state.hasIndex }
    }

    private func indexUnavailable() -> Response {
        let reason = cache.refresher.status.lastError.map { "the upstream index fetch failed: \($0.message)" }
            ?? "the first index fetch is still running"
        return HTTPError.serviceUnavailable("documents are not mirrored yet; \(reason)", retryAfterSeconds: 5).response
    }

    private func storeUnreadable(_ error: StoreError) -> Response {
        HTTPError.serviceUnavailable("the mirror's records cannot be read: \(error.message)", retryAfterSeconds: 5).response
    }

    private func notListed(_ name: String) -> Response {
        HTTPError.notFound("no document named '\(name)' in the mirror").response
    }
}
