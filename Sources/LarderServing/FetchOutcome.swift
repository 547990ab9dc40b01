/// How one upstream fetch ended: the raw value is the `outcome` label of `larder_upstream_fetches_total`.
public enum FetchOutcome: String, Sendable, CaseIterable {
    /// A body came, and Larder took it.
    case fetched = "200"
    case notModified = "304"
    /// No usable answer: unreachable, timed out, an error status, or a 304 nobody asked for.
    case error
    /// A payload Larder would not take.
    case refused
}
