import Foundation
import LarderApp
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFormats
import LarderFreshness
import LarderHTTP
import LarderStore

extension FuzzTarget {
    /// The documents mirror from upstream bytes to every answer, through the real modules: a first
    /// index synced (streamed through the index reader into the store, its documents downloaded and
    /// verified into files), a second one synced over it a while later (the download rule deciding
    /// against the stored files' timestamps, sizes and hashes), the listing rendered, then the
    /// input's requests answered by Larder's router: `/documents`, documents (whole, ranges,
    /// gzip, conditional) and the status page.
    ///
    /// The input, one item a line: the instant; the settings (`format ttl-seconds gap-seconds`);
    /// the request targets, space-separated (`path?query`, `#gzip`, `#range=…`, `#ims=…`); the
    /// upstream's documents (`name=content`, space-separated, the content percent-encoded); then the first index, and after a line
    /// of `===` the second.
    ///
    /// Every answer keeps the rates pipeline's header and status promises; the listing is the JSON
    /// index schema (SPEC §5) with valid names served here and RFC 3339 instants (`generated_at`
    /// may be any instant as data; `Last-Modified` never after now); errors have the error shape;
    /// the status page is balanced HTML of its own elements.
    static let documentsPipeline = FuzzTarget("documents-pipeline") { input throws(PropertyViolation) in
        let scene = Pipeline.Scene(input, lines: 5, requests: ["/documents", "/documents/a.txt", "/#html"])
        let format = scene.words.first.flatMap(DocumentsFormat.init(rawValue:)) ?? .auto
        var files: [String: [UInt8]] = [:]
        for pair in scene.rest[0].split(separator: " ").prefix(16) {
            let named = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            files[String(named[0])] = named.count > 1 ? Array((PercentDecoding.decode(named[1], plusIsSpace: false) ?? "").utf8) : []
        }
        let indexes = Pipeline.bodies(scene.rest[1], 2)
        try Pipeline.withScratch { directory throws(PropertyViolation) in
            let documents = DocumentsScene(
                directory: directory, now: scene.now, format: format, ttl: scene.seconds(1, in: 1...31_536_000, fallback: 900),
                gap: scene.seconds(2, in: 0...31_536_000, fallback: 3600), files: files, indexes: indexes)
            try documents.run(scene.requests)
        }
    }
}

/// One input's documents mirror.
struct DocumentsScene {
    static let indexURL = "http://upstream.test/docs/index"

    let directory: String
    let now: Date
    let format: DocumentsFormat
    let ttl: Int
    let gap: Int
    let files: [String: [UInt8]]
    let indexes: [[UInt8]]

    func run(_ requests: [Request]) throws(PropertyViolation) {
        var configuration = Configuration()
        configuration.cacheDirectory = directory
        configuration.documents = UpstreamResource(url: Self.indexURL, format: format)
        configuration.documentsTTL = .seconds(ttl)
        let first = now.addingTimeInterval(-Double(indexes.count > 1 ? gap : 0))
        let clock = PipelineClock(first)
        let upstream = InMemoryUpstream(feedURL: Self.indexURL, feed: indexes, files: files)
        let cache: DocumentsCache
        let store: Store
        do {
            store = try Store(directory: directory, logger: Pipeline.logger)
            cache = try DocumentsCache(
                DocumentsCache.Settings(upstream: UpstreamResource(url: Self.indexURL, format: format), ttl: .seconds(ttl)),
                store: store, directory: directory + "/documents", client: upstream, clock: clock,
                events: RatesScene.metrics, logger: Pipeline.logger)
        } catch {
            throw PropertyViolation(message: "the mirror does not open on an empty store: \(error)")
        }
        // Each index through a real sync: read, accepted whole or refused, downloads decided and verified.
        for position in indexes.indices {
            clock.set(position == indexes.count - 1 ? now : first)
            _ = Pipeline.wait { await cache.refresher.refresh() }
        }
        let router = LarderApplication.router(
            configuration: configuration, rates: nil, documents: cache, metrics: RatesScene.metrics, startedAt: first,
            blocking: store.blocking)
        try Pipeline.serve(requests, router, now: now) { request, response, body, what throws(PropertyViolation) in
            // A document's own bytes are data, whatever they say they are.
            guard request.segments.first != "documents" || request.segments.count == 1,
                  let json = try Pipeline.readJSON(response, body, what) else { return }
            if request.segments == ["documents"] { try checkListing(json, what) }
        }
    }

    /// SPEC §5's JSON index, as this Larder serves it.
    private func checkListing(_ json: JSONValue, _ what: String) throws(PropertyViolation) {
        guard case .object(let members) = json, case .array(let documents) = members["documents"],
              case .number("1") = members["version"], case .string(let generated) = members["generated_at"] else {
            throw PropertyViolation(message: "\(what): not a listing")
        }
        try expect(RFC3339.instant(generated) != nil, "\(what): generated_at \(generated)")
        var names: Set<String> = []
        for document in documents {
            guard case .object(let entry) = document, case .string(let name) = entry["name"],
                  case .string(let url) = entry["url"] else { throw PropertyViolation(message: "\(what): an entry without name or url") }
            try expect(DocumentName.isValid(name) && names.insert(DocumentName.caseFolded(name)).inserted,
                       "\(what): name \(name.debugDescription) invalid or listed twice")
            try expect(url == "/documents/" + name, "\(what): \(name) at \(url)")
            for key in ["created_at", "updated_at"] {
                guard let value = entry[key] else { continue }
                guard case .string(let text) = value, RFC3339.instant(text) != nil else {
                    throw PropertyViolation(message: "\(what): \(name) \(key)")
                }
            }
        }
    }
}
