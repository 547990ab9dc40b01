/// Told about every answered request (metrics); called on the server thread, so it must be cheap and never block.
/// An object: the server reads it several times per request, and a class existential is copied with one
/// retain where any other is copied through its value witnesses.
public protocol RequestObserver: AnyObject, Sendable {
    /// `route` is the matched pattern (`/rates/:date`), or `unmatched`; `nanoseconds` from the
    /// request line to the queued answer (plain integers: the hot path does no `Duration` arithmetic).
    func requestCompleted(route: String, status: Int, nanoseconds: Int64)

    /// Told when a request is refused before any handler ran (SPEC §6), before `requestCompleted`.
    func requestRefused(_ reason: RefusalReason)

    /// Told when libmicrohttpd could not allocate a request's answer, which went out as the 503
    /// prepared at start (or, without even that, as a closed connection), before `requestCompleted`.
    func responseAllocationFailed()

    /// What counts `route`'s answers of `status` as `requestCompleted` does, found once: the answer
    /// memo counts its repeats through it. Nil: they go through `requestCompleted`.
    func recorder(route: String, status: Int) -> (any RouteRecorder)?
}

/// Counts answers of one route and status (`RequestObserver.recorder`).
public protocol RouteRecorder: AnyObject, Sendable {
    func record(nanoseconds: Int64)
}

extension RequestObserver {
    /// By default, nothing.
    public func requestRefused(_ reason: RefusalReason) {}

    /// By default, nothing.
    public func responseAllocationFailed() {}

    /// By default, none: `requestCompleted` counts every answer.
    public func recorder(route: String, status: Int) -> (any RouteRecorder)? { nil }
}
