/// Told about every answered request (metrics); called on the server thread, so it must be cheap and never block.
public protocol RequestObserver: Sendable {
    /// `route` is the matched pattern (`/rates/:date`), or `unmatched`.
    func requestCompleted(route: String, status: Int, duration: Duration)
}
