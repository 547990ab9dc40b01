/// Where the server runs the handlers of suspended requests: work that must end before what the
/// handlers use closes (Larder's is its `BackgroundWork`, a service of the group).
public protocol JobRunner: Sendable {
    /// Starts `job`; false once no job is taken any more (the server then answers 503).
    func submit(_ job: @escaping @Sendable () async -> Void) -> Bool
}

/// Each job a task of its own, nothing waiting for it: for a server used on its own (the sample
/// upstream, tests).
public struct DetachedJobs: JobRunner {
    public init() {}

    public func submit(_ job: @escaping @Sendable () async -> Void) -> Bool {
        Task { await job() }
        return true
    }
}
