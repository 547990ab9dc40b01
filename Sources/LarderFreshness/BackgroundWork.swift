/// Work that outlives the call that starts it (a refresh a request triggered, a fetch many callers
/// share, a cross-check, a suspended request's handler), run as child tasks of one long-lived task,
/// `run()`: in `larder serve` a service of the group, stopped after the server and the schedulers,
/// so a graceful stop waits for the work (bounded) before the upstream client and the store close.
public final class BackgroundWork: Sendable {
    public typealias Job = @Sendable () async -> Void

    /// nil: standalone, each job a task of its own.
    private let jobs: (stream: AsyncStream<Job>, continuation: AsyncStream<Job>.Continuation)?

    /// Jobs wait, in order, until `run()` runs them.
    public init() {
        jobs = AsyncStream.makeStream(of: Job.self)
    }

    private init(standalone: Void) {
        jobs = nil
    }

    /// For a piece used on its own, outside a service group (unit tests, the fuzz pipelines): each
    /// job starts at once as a task of its own, and nothing waits for it.
    public static var standalone: BackgroundWork { BackgroundWork(standalone: ()) }

    /// Starts `job` under `run()`; false once `stop()` was called, and the job never runs (the caller
    /// undoes what it prepared for it).
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool {
        guard let jobs else {
            Task { await job() }
            return true
        }
        if case .enqueued = jobs.continuation.yield(job) { return true }
        return false
    }

    /// Runs every job submitted, each a child task, until `stop()` was called and every job ended.
    /// Cancelling the calling task cancels the jobs.
    public func run() async {
        guard let jobs else { return }
        await withDiscardingTaskGroup { group in
            for await job in jobs.stream {
                group.addTask { await job() }
            }
        }
    }

    /// Takes no new job; `run()` returns once the running ones end.
    public func stop() {
        jobs?.continuation.finish()
    }
}
