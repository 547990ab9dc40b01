import Foundation

/// Blocking work kept off Swift's cooperative pool: SQLite through GRDB's synchronous API (a
/// commit waits for `fsync` under `synchronous = FULL`), `fdatasync`, renames, a file rendered whole.
///
/// The pool has one thread per core (two on a small machine). A task that blocks one of them in
/// a journal commit takes half of it; two such tasks stop every suspended request handler,
/// refresh and `await` in the process until the disk answers. Refresh and sync paths run their
/// store and file work through `OffPool.run`, on a thread of its own, and suspend meanwhile.
public enum OffPool {
    /// Runs `work` on a new thread and returns (or throws) what it did; the calling task suspends
    /// meanwhile, so its pool thread serves other tasks.
    public static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(E) -> T in try work() })
            }
            thread.start()
        }
        return try result.get()
    }
}
