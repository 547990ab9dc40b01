public import Foundation
public import LarderConfig
public import LarderDocumentsCache
public import LarderFreshness
public import LarderHTTP
public import LarderMetrics
import LarderRatesAPI
public import LarderRatesCache
import LarderServing
public import LarderStore
public import LarderUpstream
public import Logging
public import ServiceLifecycle
public import UnixSignals

/// The running Larder built from a configuration — the same value for the binary and for tests.
public struct LarderApplication: Sendable {
    public let configuration: Configuration
    public let server: HTTPServer
    /// nil when `--rates-url` is not set.
    public let rates: RatesCache?
    /// nil when `--documents-url` is not set.
    public let documents: DocumentsCache?
    let store: Store?
    /// The one pool for blocking file and parse work (files, parses, the status page's renders, the group commit).
    public let blocking: BlockingPool
    let client: UpstreamClient
    /// Every metric `/metrics` shows.
    public let metrics: LarderMetrics
    /// The upstreams' `Date` against the clock, for `/status` and `/metrics` (SPEC §4.11).
    let clockSkew: ClockSkew
    /// What runs outside a request's own task: refreshes, downloads, cross-checks, suspended requests.
    let background = BackgroundWork()
    let logger: Logger

    /// How long a graceful stop waits for background work (after the server drained, up to 5 s)
    /// before cancelling it: both within SPEC §2's 10 s.
    static let backgroundGracePeriod: Duration = .seconds(4)

    /// Opens the store and loads what it holds, so the first request is served from disk.
    ///
    /// `clock` drives every freshness decision (tests pass a `ManualClock`); `upstreamLimits` bound
    /// every upstream request; `commitObserver` is told of each commit of downloaded documents (tests
    /// pass one; Larder none). `onListening` receives the bound host and the real port (SPEC §2).
    public init(
        configuration: Configuration, logger: Logger,
        clock: any FreshnessClock = SystemClock(), upstreamLimits: UpstreamLimits = .init(),
        commitObserver: (any CommitObserver)? = nil,
        onListening: (@Sendable (_ host: String, _ port: Int) -> Void)? = nil
    ) throws {
        self.configuration = configuration
        self.logger = logger
        let resources: [CacheResource] = (configuration.rates == nil ? [] : [.rates])
            + (configuration.documents == nil ? [] : [.documents, .document])
        let metrics = LarderMetrics(
            resources: resources, version: LarderVersion.current, libmicrohttpd: HTTPServer.libraryVersion)
        self.metrics = metrics
        let blocking = BlockingPool()
        self.blocking = blocking
        let store = !resources.isEmpty
            ? try Store(directory: configuration.cacheDirectory, blocking: blocking, logger: logger) : nil
        self.store = store
        // Instants no rule can read (text, infinite, past year 9999) are repaired before anything reads
        // them: a start never depends on what the store holds. One merely after now is kept (SPEC §4.11).
        for repaired in try store?.repairInstants(now: clock.now) ?? [] {
            logger.warning("store: repaired instants after now or unreadable, \(repaired)")
        }
        // The shared decompressor's backstop must let every configured cap through.
        var limits = upstreamLimits
        limits.maxInflatedBytes = max(
            limits.maxInflatedBytes, configuration.ratesMaxBytes, configuration.documentsIndexMaxBytes,
            configuration.documentsMaxBytes)
        let clockSkew = ClockSkew(clock: clock)
        self.clockSkew = clockSkew
        client = UpstreamClient(
            limits: limits, version: LarderVersion.current, logger: logger, observeDate: clockSkew.observe(dateHeader:))
        if let upstream = configuration.rates, let store {
            let settings = RatesCache.Settings(
                upstream: upstream, ttl: configuration.ratesTTL, schedule: configuration.ratesSchedule,
                pollInterval: configuration.ratesPollInterval, maxBytes: configuration.ratesMaxBytes,
                provider: configuration.ratesProvider, crossCheck: configuration.ratesCrossCheck)
            rates = try RatesCache(
                settings, store: store, client: client, clock: clock, events: metrics, background: background, logger: logger)
        } else {
            rates = nil
        }
        if let upstream = configuration.documents, let store {
            let settings = DocumentsCache.Settings(
                upstream: upstream, ttl: configuration.documentsTTL, schedule: configuration.documentsSchedule,
                indexMaxBytes: configuration.documentsIndexMaxBytes, documentMaxBytes: configuration.documentsMaxBytes)
            documents = try DocumentsCache(
                settings, store: store,
                directory: (configuration.cacheDirectory as NSString).appendingPathComponent("documents"),
                client: client, clock: clock, events: metrics, background: background, commitObserver: commitObserver,
                logger: logger)
        } else {
            documents = nil
        }
        server = HTTPServer(
            configuration: ServerConfiguration(configuration),
            router: Self.router(
                configuration: configuration, rates: rates, documents: documents, metrics: metrics,
                startedAt: clock.now, blocking: blocking, clockSkew: clockSkew),
            logger: logger,
            observer: metrics,
            background: BackgroundJobs(work: background),
            onListening: onListening
        )
        // Weak: the server holds the metrics as its observer.
        metrics.countMemoAnswers { [weak server = self.server] in server?.memoAnswers ?? 0 }
    }

    /// Every route Larder answers (public so a whole pipeline can be answered in-process: the fuzz targets);
    /// the status page renders on `blocking`.
    public static func router(
        configuration: Configuration, rates: RatesCache?, documents: DocumentsCache?, metrics: LarderMetrics,
        startedAt: Date, blocking: BlockingPool, clockSkew: ClockSkew? = nil
    ) -> Router {
        var router = Router()
        if let rates {
            RatesRoutes(cache: rates, adminToken: configuration.adminToken, cors: CORSPolicy(configuration.ratesCORS))
                .register(on: &router)
        }
        HealthRoutes.register(on: &router)
        let reporter = StatusReporter(
            configuration: configuration, rates: rates, documents: documents, startedAt: startedAt, clockSkew: clockSkew)
        OperationsRoutes(reporter: reporter).register(on: &router)
        StatusPageRoutes(reporter: reporter, blocking: blocking).register(on: &router)
        MetricsRoutes(metrics: metrics, rates: rates, documents: documents, clockSkew: clockSkew).register(on: &router)
        DialectRoutes(cors: CORSPolicy(configuration.ratesCORS)).register(on: &router)
        if let rates {
            V2Routes(cache: rates, cors: CORSPolicy(configuration.ratesCORS)).register(on: &router)
        } else {
            DisabledResourceRoutes.rates.register(on: &router)
        }
        if let documents {
            DocumentsRoutes(
                cache: documents, adminToken: configuration.adminToken, cors: CORSPolicy(configuration.documentsCORS)
            ).register(on: &router)
        } else {
            DisabledResourceRoutes.documents.register(on: &router)
        }
        DialectRoutes.registerFallback(on: &router)
        return router
    }

    /// The background work, the schedulers and the server; stopped in reverse order, so the server
    /// drains first and the background work, which the others start, ends last.
    var services: [any Service] {
        var services: [any Service] = [BackgroundService(work: background, gracePeriod: Self.backgroundGracePeriod)]
        if let rates { services.append(RefresherService(refresher: rates.refresher)) }
        if let documents { services.append(RefresherService(refresher: documents.refresher)) }
        services.append(server)
        return services
    }

    /// Closes the shared upstream client (after the services stopped; `run` does it itself).
    public func shutdownUpstreamClient() async {
        await client.shutdown()
    }

    /// Every service `run()` runs, in one group that shuts down gracefully on `gracefulShutdownSignals`
    /// (or `triggerGracefulShutdown()`): what tests run too, so they run what ships.
    public func serviceGroup(gracefulShutdownSignals: [UnixSignal]) -> ServiceGroup {
        ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger
        ))
    }

    /// Serves until SIGTERM or SIGINT (or the task is cancelled), then stops gracefully.
    public func run() async throws {
        let group = serviceGroup(gracefulShutdownSignals: [.sigterm, .sigint])
        do {
            try await group.run()
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
    }
}

extension ServerConfiguration {
    /// The HTTP layer's part of Larder's configuration.
    init(_ configuration: Configuration) {
        self.init()
        host = configuration.host
        port = configuration.port
        threads = configuration.threads.resolved()
        connectionTimeoutSeconds = Int(configuration.clientTimeout.components.seconds)
        maxConnections = configuration.maxConnections
        maxConnectionsPerIP = min(configuration.maxConnectionsPerIP, configuration.maxConnections)
        allowedHosts = configuration.allowedHosts
    }
}

extension CORSPolicy {
    /// The HTTP layer's policy for a `--rates-cors` / `--documents-cors` value.
    init(_ origins: AllowedOrigins) {
        switch origins {
        case .none: self = .none
        case .any: self = .anyOrigin
        case .list(let list): self = .origins(list)
        }
    }
}
