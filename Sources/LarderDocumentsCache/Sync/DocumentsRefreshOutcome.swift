/// What one sync of the documents mirror did (the counts of `POST /documents/refresh`).
public struct DocumentsRefreshOutcome: Sendable, Equatable {
    public var added = 0
    public var updated = 0
    public var removed = 0
    public var unchanged = 0
    public var failed = 0
    /// True when the upstream answered the index request with 304.
    public var indexNotModified = false

    public init() {}
}
