import LarderFreshness
import LarderHTTP

/// The server's suspended handlers as jobs of the application's `BackgroundWork`, so a graceful stop
/// waits for them too (LarderHTTP knows nothing of LarderFreshness).
struct BackgroundJobs: JobRunner {
    let work: BackgroundWork

    func submit(_ job: @escaping @Sendable () async -> Void) -> Bool {
        work.submit(job)
    }
}
