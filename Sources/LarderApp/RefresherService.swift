import LarderFreshness
import ServiceLifecycle

/// Runs one resource's scheduler for the life of the process: a sync at start, then refreshes
/// before each expiry, until graceful shutdown.
struct RefresherService<Outcome: Sendable>: Service {
    let refresher: Refresher<Outcome>

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await refresher.run()
        }
    }
}
