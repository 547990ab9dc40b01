import Foundation
import Synchronization

/// The process's one pool for blocking work, a fixed number of threads fed by one queue: `fdatasync`,
/// renames, a payload parsed or a page rendered whole, and the jobs that pair such work with a commit
/// through GRDB's synchronous API (a commit waits for `fsync` under `synchronous = FULL`); the
/// store's other reads and writes go through GRDB's async API on the store's own queue.
///
/// Swift's cooperative pool has one thread per core (two on a small machine): a task blocking one of
/// them in a journal commit takes half of it, and two stop every suspended request handler, refresh
/// and `await` in the process until the disk answers. So that work runs here, its caller suspended;
/// and as the threads are made once, a burst of cold requests queues instead of growing threads
/// (the process's whole bound: docs/architecture.md#nothing-blocks-swifts-cooperative-pool).
/// `LarderApplication` makes one and passes it in; the threads end with the last reference, after
/// the queued work ran.
public final class BlockingPool: Sendable {
    /// The threads of the pool Larder runs: disk waits, not CPU, so more than the cores pays off, and
    /// commits stalled on a slow disk (one per core and more) still leave threads for a refresh.
    public static var defaultThreads: Int { max(8, 2 * ProcessInfo.processInfo.activeProcessorCount) }

    /// How many threads run the work.
    public let threads: Int
    private let queue: JobQueue

    /// Starts `threads` threads (at least one), idle until work arrives.
    public init(threads: Int = BlockingPool.defaultThreads) {
        self.threads = max(threads, 1)
        queue = JobQueue()
        for index in 0..<self.threads {
            Thread { [queue] in
                // Named from inside: Linux gives a new thread its creator's name (a libdispatch worker's, often).
                Thread.current.name = "blocking-\(index)"
                queue.serve()
            }.start()
        }
    }

    deinit {
        queue.close(threads: threads)
    }

    /// Runs `work` on one of the pool's threads and returns (or throws) what it did; the calling task
    /// suspends meanwhile, so its cooperative thread serves other tasks.
    public func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.add {
                continuation.resume(returning: Result { () throws(E) -> T in try work() })
            }
        }
        return try result.get()
    }
}

/// The pool's queue: work in arrival order, and a semaphore counting what waits plus one wake per
/// thread at the close; a thread woken with nothing queued took a close's wake, and ends.
private final class JobQueue: Sendable {
    private struct Jobs {
        var waiting: [@Sendable () -> Void] = []
        var head = 0
    }

    private let jobs = Mutex(Jobs())
    private let available = DispatchSemaphore(value: 0)

    func add(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.waiting.append(job) }
        available.signal()
    }

    /// A thread's loop: runs jobs until the queue is closed and empty.
    func serve() {
        while true {
            available.wait()
            let job = jobs.withLock { jobs -> (@Sendable () -> Void)? in
                guard jobs.head < jobs.waiting.count else { return nil }
                defer {
                    jobs.head += 1
                    // Dropped in one go once drained, so a long queue costs no shifting per job.
                    if jobs.head == jobs.waiting.count {
                        jobs.waiting.removeAll(keepingCapacity: true)
                        jobs.head = 0
                    }
                }
                return jobs.waiting[jobs.head]
            }
            guard let job else { return }  // a close's wake, with nothing left to run
            job()
        }
    }

    /// Wakes each thread once more: each drains what is queued before it, then ends.
    func close(threads: Int) {
        for _ in 0..<threads { available.signal() }
    }
}
