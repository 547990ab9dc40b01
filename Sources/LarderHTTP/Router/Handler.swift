/// How a route answers: at once on the server thread, or after `await`ing with the connection suspended.
public enum Handler: Sendable {
    /// Answers on the libmicrohttpd worker thread; must not block. The hot path.
    case immediate(@Sendable (Request) -> Response)
    /// Suspends the connection, runs on Swift concurrency, resumes it with the answer.
    case suspending(@Sendable (Request) async -> Response)
    /// Answers at once when it can (the hot path), or asks to suspend and finish asynchronously
    /// (a cold cache waiting for its first fetch).
    case adaptive(@Sendable (Request) -> Answer)

    /// What an adaptive handler decided.
    public enum Answer: Sendable {
        case now(Response)
        case later(@Sendable (Request) async -> Response)
    }
}
