import Foundation
public import LarderApp
public import LarderConfig
public import LarderDocumentsCache
import LarderFreshness
import LarderHTTP
import LarderUpstream
import ServiceLifecycle
public import Synchronization

/// A Larder running its services in this process (see `withLarder`): restartable on the same
/// cache, so a test can stop it, change its configuration, and start it again.
public final class TestLarder: Sendable {
    private struct Running: Sendable {
        var application: LarderApplication
        var group: ServiceGroup
        var task: Task<Void, any Error>
    }

    /// What the next `start()` runs with.
    public let configuration: Mutex<Configuration>
    public let clock: ManualClock
    /// Runs the application on the system clock instead of `clock` (what `larder serve` runs on; the
    /// server's answer memo repeats answers only then).
    public let onSystemClock: Bool
    /// How long one upstream request may take before Larder gives up on it.
    public let upstreamTimeout: Duration
    /// Told of each commit of downloaded documents, in every run.
    public let commitObserver: (any CommitObserver)?
    private let running = Mutex<Running?>(nil)

    /// A configuration on loopback, port 0, a fresh temporary cache, four server threads.
    public static func defaultConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.port = 0
        configuration.threads = .fixed(4)
        configuration.cacheDirectory = temporaryPath()
        return configuration
    }

    init(
        configuration: Configuration, clock: ManualClock, onSystemClock: Bool = false, upstreamTimeout: Duration,
        commitObserver: (any CommitObserver)?
    ) {
        self.configuration = Mutex(configuration)
        self.clock = clock
        self.onSystemClock = onSystemClock
        self.upstreamTimeout = upstreamTimeout
        self.commitObserver = commitObserver
    }

    /// The running application (its caches, its server); nil while stopped.
    public var application: LarderApplication? { running.withLock { $0?.application } }

    public var cacheDirectory: String { configuration.withLock { $0.cacheDirectory } }

    /// The port the server listens on.
    public var port: Int { application?.server.port ?? 0 }

    /// Builds the application and runs its services; returns once it listens.
    public func start() async throws {
        let configuration = configuration.withLock { $0 }
        var limits = UpstreamLimits()
        limits.requestTimeout = upstreamTimeout
        // Opening the store (quick_check, migrations, fsyncs) and loading the caches: synchronous
        // start-up work, on a thread of its own, since many suites start a Larder at once (see `onThread`).
        let clock: any FreshnessClock = onSystemClock ? SystemClock() : clock
        let commitObserver = commitObserver
        let application = try await onThread { [limits] in
            try LarderApplication(
                configuration: configuration, logger: quietLogger, clock: clock, upstreamLimits: limits,
                commitObserver: commitObserver)
        }
        let group = application.serviceGroup(gracefulShutdownSignals: [])
        let task = Task { try await group.run() }
        running.withLock { $0 = Running(application: application, group: group, task: task) }
        let listening = try await eventually(timeout: .seconds(60)) { application.server.port != 0 }
        guard listening else {
            await stop()
            throw TestConnectionError("Larder did not start listening within 10 s")
        }
    }

    /// Shuts the services down gracefully, as SIGTERM would, and closes the upstream client.
    public func stop() async {
        guard let current = running.withLock({ state -> Running? in defer { state = nil }; return state }) else { return }
        await current.group.triggerGracefulShutdown()
        _ = try? await current.task.value
        await current.application.shutdownUpstreamClient()
    }

    /// Stops, then starts again on the same cache with `change` applied to the configuration.
    public func restart(_ change: (inout Configuration) -> Void = { _ in }) async throws {
        await stop()
        configuration.withLock { change(&$0) }
        try await start()
    }

    /// Stops, and removes the cache directory.
    func tearDown() async {
        await stop()
        try? FileManager.default.removeItem(atPath: cacheDirectory)
    }
}
