/// Told about every answered request (metrics); called on the server thread, so it must be cheap and never block.
public protocol RequestObserver: Sendable {
    /// `route` is the matched pattern (`/rates/:date`), or `unmatched`; `nanoseconds` from the
    /// request line to the queued answer (plain integers: the hot path does no `Duration` arithmetic).
    func requestCompleted(route: String, status: Int, nanoseconds: Int64)
}
