import LarderFreshness
import ServiceLifecycle

/// Runs Larder's background work (refreshes, downloads, cross-checks, suspended requests' handlers)
/// for the life of the process. First in the group, so it stops last, after the server and the
/// schedulers: then it takes no new job, gives the running ones `gracePeriod`, and cancels what is
/// left, before `run` closes the upstream client and the store goes.
struct BackgroundService: Service {
    let work: BackgroundWork
    let gracePeriod: Duration

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work.run() }
            // Throws when the group is cancelled rather than stopped: the jobs are cancelled with it.
            try? await gracefulShutdown()
            work.stop()
            group.addTask { try? await Task.sleep(for: gracePeriod) }
            // The jobs ended, or the grace period did: whichever comes first cancels the other.
            await group.next()
            group.cancelAll()
        }
    }
}
