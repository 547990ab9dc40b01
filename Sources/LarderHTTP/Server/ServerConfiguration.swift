/// How the HTTP server listens and what it tolerates from clients (SPEC §6, client side).
public struct ServerConfiguration: Sendable {
    /// An address literal or a host name to bind to.
    public var host: String = "127.0.0.1"
    /// 0 binds an ephemeral port; `HTTPServer.port` tells which.
    public var port: Int = 8080
    /// How many epoll loops serve, each on a thread of its own, sharing the port (see `HTTPServer`).
    public var threads: Int = 1
    /// A connection idle or stalled this long is closed (slowloris).
    public var connectionTimeoutSeconds: Int = 30
    public var maxConnections: Int = 4096
    public var maxConnectionsPerIP: Int = 1024
    /// libmicrohttpd's per-connection memory pool; a request head past it is refused by libmicrohttpd itself.
    public var connectionMemoryLimit: Int = 32 * 1024
    /// Longest request target (path and query) answered; longer gets 414.
    public var maxTargetLength: Int = 8 * 1024
    /// Largest total of request header names and values; larger gets 431.
    public var maxHeaderBytes: Int = 16 * 1024
    /// Largest request body read; larger gets 413.
    public var maxBodyBytes: Int = 1024 * 1024
    public var listenBacklog: Int = 1024
    /// The `Host` names answered (SPEC §2 `--allowed-hosts`); nil: `HostAllowlist.loopback` when bound
    /// to a loopback address, else `HostAllowlist.any` with a start-up log line recommending a list.
    public var allowedHosts: HostAllowlist?
    /// On stop, how long requests in flight may take to finish before they are cut.
    public var drainTimeout: Duration = .seconds(5)
    /// Repeats a route's prepared answer from C to later requests that are the same to the route
    /// (`AnswerMemo`); off, every request runs its route. Off anyway while the access log is on.
    public var answerMemo = true
    #if DEBUG
    /// Debug builds' tests only: failures the server makes on purpose (`InjectedFaults`).
    var faults = InjectedFaults()
    #endif

    public init() {}
}
