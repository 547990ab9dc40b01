/// Told of each stage of a batch commit of downloaded documents, on the thread that commits. Larder
/// itself passes none; a test passes one through `LarderApplication`'s init to stand in for a slow
/// disk, or to look at the files before their transaction.
public protocol CommitObserver: Sendable {
    /// A commit is starting: nothing of the batch is placed yet.
    func commitStarting()
    /// The batch's files are in place and synced; their transaction comes next.
    func filesSynced(_ fileNames: [String])
}

extension CommitObserver {
    public func commitStarting() {}
    public func filesSynced(_ fileNames: [String]) {}
}
