import Foundation
public import LarderConfig
public import LarderDocuments
public import LarderFreshness
public import LarderServing
public import LarderStore
public import LarderUpstream
public import Logging

/// The documents mirror: the last valid index, the verified files on disk, and the refresher that
/// keeps the index fresh and the files in step with it.
public final class DocumentsCache: Sendable {
    /// The upstreams (in priority order) and the limits the mirror runs under (SPEC §2, §4.12, §6).
    public struct Settings: Sendable {
        public var upstream: UpstreamResource<DocumentsFormat>
        public var ttl: Duration
        /// `follow`: the index revalidated when the upstream's `max-age` runs out (SPEC §4.14).
        public var schedule: DocumentsSchedule
        /// The index body cap, counted after decompression.
        public var indexMaxBytes: Int
        /// The document body cap, counted after decompression.
        public var documentMaxBytes: Int

        public init(
            upstream: UpstreamResource<DocumentsFormat>, ttl: Duration, schedule: DocumentsSchedule = .ttl,
            indexMaxBytes: Int = DocumentIndexParser.defaultMaxBytes, documentMaxBytes: Int = 64 * 1024 * 1024
        ) {
            self.upstream = upstream
            self.ttl = ttl
            self.schedule = schedule
            self.indexMaxBytes = indexMaxBytes
            self.documentMaxBytes = documentMaxBytes
        }
    }

    /// How long a request for something not yet mirrored waits for its fetch (SPEC §4.5).
    public static let coldWait: Duration = .seconds(10)

    public let refresher: Refresher<DocumentsRefreshOutcome>
    let state: DocumentsState
    let downloads: DocumentDownloads
    /// How far the running sync is (`/status`).
    let progress = SyncProgress()
    let mirror: MirrorDirectory
    /// The upstreams, their health, and which one the held index came from.
    let upstreams: DocumentUpstreams
    /// The `/documents` answer, rendered to files once per change.
    let listing: ListingCache
    let store: Store
    let sweep: MirrorSweep
    let clock: any FreshnessClock
    let events: any CacheEvents
    let logger: Logger

    /// Loads the mirror (kept, served stale, when the set of `--documents-url`s changed: SPEC §4.9) and cleans the directory of
    /// temporary and unlisted files, so a restart serves at once and never serves a partial file.
    /// Syncs, downloads and listing renderings run as jobs of `background`.
    public init(
        _ settings: Settings, store: Store, directory: String,
        client: any UpstreamTransport, clock: any FreshnessClock, events: any CacheEvents,
        background: BackgroundWork = .standalone, commitObserver: (any CommitObserver)? = nil, logger: Logger
    ) throws {
        let upstream = settings.upstream
        let upstreams = DocumentUpstreams(upstream)
        self.upstreams = upstreams
        self.clock = clock
        self.events = events
        self.logger = logger
        let upstreamSwitch = UpstreamSwitch(
            pending: try store.prepare(resource: DocumentEntryRecord.resource, upstreamURL: upstream.identity))
        if upstreamSwitch.isPending {
            logger.notice("documents: the upstream URL changed; the mirror is served, marked stale, until the new upstream's index is synced")
        }
        mirror = try MirrorDirectory(path: directory)
        let item = try store.item(resource: DocumentEntryRecord.resource, key: DocumentsSync.indexKey)
        // Nothing more is read here: entries and files stay in the store, read a document at a time,
        // and no file is checked (the first sync sweeps them in the background, and a request finds a
        // damaged one when it opens it), so start-up does not grow with the mirror.
        let state = DocumentsState(
            store: store, hasIndex: item != nil, indexUpdatedAt: item?.updatedAt, indexStoredAt: item?.fetchedAt)
        self.state = state
        listing = try ListingCache(
            directory: directory + "-listing", store: store, state: state, clock: clock, background: background,
            logger: logger)
        self.store = store
        let downloader = DocumentDownloader(
            mirror: mirror, client: client, upstreams: upstreams, maxBytes: settings.documentMaxBytes, events: events, logger: logger)
        let downloads = DocumentDownloads(
            downloader: downloader, state: state,
            commits: GroupCommit(mirror: mirror, store: store, state: state, observer: commitObserver, logger: logger),
            progress: progress, logger: logger, flight: SingleFlight(background: background))
        self.downloads = downloads
        let sweep = MirrorSweep(mirror: mirror, store: store, state: state, logger: logger)
        self.sweep = sweep
        let follow = settings.schedule == .follow ? FollowSchedule() : nil
        let sync = DocumentsSync(
            upstreams: upstreams, upstreamIdentity: upstream.identity, store: store, client: client, state: state, downloads: downloads, mirror: mirror, sweep: sweep,
            listing: listing,
            indexMaxBytes: settings.indexMaxBytes, upstreamSwitch: upstreamSwitch, events: events, logger: logger, follow: follow)
        let schedule: any RefreshSchedule = follow ?? TTLSchedule(ttl: settings.ttl)
        refresher = Refresher(
            name: CacheResource.documents.rawValue, schedule: schedule, clock: clock, fetchedAt: item?.fetchedAt,
            upstreamSwitch: upstreamSwitch, background: background, logger: logger
        ) { now in
            let started = ContinuousClock.now
            let result = await sync.run(contactAt: now)
            events.refreshed(.documents, duration: ContinuousClock.now - started)
            return result
        }
    }

    /// Fetches a listed document now (joining a fetch in flight), waiting at most `coldWait`. A stored
    /// copy that could not be served (missing or damaged on disk) is dropped first, so it is written anew.
    func fetchOnDemand(_ entry: DocumentEntryRecord, unservable: DocumentFileRecord?) async -> DocumentDownloads.Result? {
        if let unservable {
            let sweep = sweep
            await store.blocking.run { sweep.drop(unservable) }
        }
        return await withDeadline(Self.coldWait, on: clock) {
            await self.downloads.fetch(entry, conditional: false, now: self.clock.now)
        }
    }
}

extension DocumentsCache {
    /// What `/status` and `/metrics` say about the mirror (zeros, logged, when the store cannot be read).
    public var summary: (listed: Int, mirrored: Int, bytes: Int) {
        get async {
            do {
                let counts = try await state.counts()
                return (counts.listed, counts.mirrored, counts.bytes)
            } catch {
                logger.error("documents: cannot count the mirror: \(error)")
                return (0, 0, 0)
            }
        }
    }

    /// Documents whose latest download failed (their old copies, if any, are still served).
    public var failedDownloads: [(name: String, message: String)] { state.failures }

    /// How many documents' latest download failed (without sorting them as `failedDownloads` does).
    public var failedDownloadCount: Int { state.failureMessages.count }

    /// How far the running sync's downloads are; `running` is false between syncs.
    public var syncProgress: SyncProgress.Snapshot { progress.snapshot }

    /// Each upstream with its health, in priority order (`/status`, `/metrics`, the status page).
    public var upstreamReports: [UpstreamReport] { upstreams.reports(at: clock.now) }

    /// True once an index was accepted (readiness): listed documents not yet mirrored are fetched on demand.
    public var hasData: Bool { state.hasIndex }
}
