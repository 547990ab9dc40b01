import Dispatch

/// A task executor that runs jobs one at a time, in the order they arrive. Tasks started on it one
/// after another each run up to their first suspension before the next one begins, so once a task
/// started last has run, every earlier one has reached its waiting point (joined a single flight,
/// say): a test knows that without sleeping.
public final class InOrderExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "larder-testing.in-order")

    public init() {}

    /// Queues `job` behind every job enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Returns once every task started on this executor before the call has run up to its first suspension.
    public func settle() async {
        await Task(executorPreference: self) {}.value
    }
}
