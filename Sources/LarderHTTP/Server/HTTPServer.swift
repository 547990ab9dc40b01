import CLarderHTTP
import CMicroHTTPD
import Glibc
public import Logging
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: one epoll loop per thread, a router, suspend/resume for
/// handlers that `await`, and a graceful stop.
///
/// Each thread is Larder's own epoll loop (`larder_epoll_loop` in CLarderHTTP) driving a daemon of its
/// own, so idle keep-alive connections cost nothing per turn. With `threads` > 1 the daemons'
/// listening sockets share the port through SO_REUSEPORT, so the kernel spreads new connections
/// evenly over the loops, and count their connections together against the connection and
/// per-address limits (`larder_shared_limits`: libmicrohttpd counts per daemon). Not libmicrohttpd's
/// own epoll threads: unpatched, its MHD_epoll() waits again with the full timeout after a batch of
/// exactly 128 events (bench/epoll-churn.c); patched, its pool shares one listening socket and
/// whichever thread wakes first takes a burst of new connections, so a pool of two often served on
/// one core (docs/architecture.md, "Threads").
public final class HTTPServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    let router: Router
    let logger: Logger
    let onListening: (@Sendable (_ host: String, _ port: Int) -> Void)?
    let accessLogEnabled: Bool
    let observer: (any RequestObserver)?
    /// Runs the handlers of suspended requests, so a graceful stop of the process waits for them.
    let background: any JobRunner
    /// The `Host` names answered: the configured list, or the default for the bind address.
    let hosts: HostAllowlist
    /// True when no list is configured and the bind address is not loopback: any Host is answered.
    let hostsOpenByDefault: Bool

    // Raw libmicrohttpd pointers, only touched under `state`'s lock.
    struct Running: @unchecked Sendable {
        /// One daemon per loop; several share the port.
        var daemons: [OpaquePointer] = []
        var address: BindAddress?
        var logSink: UnsafeMutablePointer<larder_log_sink>?
        /// Larder's epoll loops, one per daemon.
        var loops: [UnsafeMutablePointer<larder_epoll_loop>] = []
        /// The connection limits the daemons share, when there are several.
        var sharedLimits: OpaquePointer?
        var port = 0
        var stopping = false
        /// Requests whose connection is suspended while their handler runs.
        var suspended: [ObjectIdentifier: RequestContext] = [:]
    }

    let state = Mutex(Running())
    /// Requests between their request line and their completion, for the graceful stop.
    let inFlight = Atomic<Int>(0)
    /// Read on every request: once set, new requests are turned away while the stop drains.
    let isStopping = Atomic<Bool>(false)
    let lastLibraryMessage = Mutex<String?>(nil)
    /// The answer when libmicrohttpd cannot allocate a request's own, made before any is needed; nil
    /// if even that failed (such a request's connection is then closed).
    let allocationFailure: OpaquePointer?
    /// The answer memo's side of this server (`AnswerMemo`): on while the server runs without an access log.
    let memoOwner: OpaquePointer

    /// `observer` hears of every answered request; `onListening` is called with the real host and port each time `run()` has started listening;
    /// `background` runs the handlers that suspend their request.
    public init(
        configuration: ServerConfiguration, router: Router, logger: Logger,
        observer: (any RequestObserver)? = nil, background: any JobRunner = DetachedJobs(),
        onListening: (@Sendable (_ host: String, _ port: Int) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.background = background
        self.router = router
        self.logger = logger
        self.observer = observer
        self.onListening = onListening
        accessLogEnabled = logger.logLevel <= .debug
        if let configured = configuration.allowedHosts {
            (hosts, hostsOpenByDefault) = (configured, false)
        } else {
            // A host that does not resolve fails in `start`; until then it is not loopback.
            let address = try? BindAddress(host: configuration.host, port: configuration.port)
            defer { address?.deallocate() }
            let loopback = address?.isLoopback ?? false
            (hosts, hostsOpenByDefault) = (loopback ? .loopback : .any, !loopback)
        }
        allocationFailure = MHDResponses.make(Self.outOfMemory.response)
        // `server` is set at start, when libmicrohttpd's callbacks get their retain of this server.
        let callbacks = larder_memo_callbacks(
            server: nil, begin: larderBeginRequest, access: larderAccessHandler, completed: larderRequestCompleted,
            answered: larderMemoAnswered, release: larderMemoRelease)
        guard let owner = larder_memo_owner_create(callbacks, configuration.maxHeaderBytes) else {
            fatalError("out of memory for the answer memo")
        }
        memoOwner = owner
    }

    deinit {
        if let allocationFailure { MHD_destroy_response(allocationFailure) }
        larder_memo_owner_destroy(memoOwner)
    }

    /// Answers the answer memo has given (`larder_http_memo_answers_total`).
    public var memoAnswers: Int { Int(truncatingIfNeeded: larder_memo_answers(memoOwner)) }

    /// `libmicrohttpd 1.0.10`: the library this process runs on, as it reports itself (`MHD_get_version()`),
    /// not the headers it was built with.
    public static var library: String { "libmicrohttpd \(libraryVersion)" }

    /// `1.0.10`: the version alone (`larder_build_info`'s label).
    public static var libraryVersion: String { String(cString: MHD_get_version()) }

    /// The port the server listens on (the real one when started with port 0); 0 before `start`.
    public var port: Int { state.withLock { $0.port } }

    /// Binds and starts serving on libmicrohttpd's threads; returns once listening.
    public func start() throws(HTTPServerError) {
        // Writes to a closed socket must fail with EPIPE, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let address = try BindAddress(host: configuration.host, port: configuration.port)
        let sink = UnsafeMutablePointer<larder_log_sink>.allocate(capacity: 1)
        let this = Unmanaged.passRetained(self)
        larder_memo_set_server(memoOwner, this.toOpaque())
        sink.initialize(to: larder_log_sink(fn: larderMHDLog, context: this.toOpaque()))
        // One daemon per loop, each loop one thread.
        let daemons = max(1, configuration.threads)
        // MHD_USE_ITC: a resume from a handler's task wakes the loop's wait.
        var flags = MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let options = larder_daemon_options(
            thread_pool_size: 1,
            connection_timeout_seconds: UInt32(max(1, configuration.connectionTimeoutSeconds)),
            connection_limit: UInt32(configuration.maxConnections),
            per_ip_connection_limit: UInt32(configuration.maxConnectionsPerIP),
            connection_memory_limit: configuration.connectionMemoryLimit,
            listen_backlog: UInt32(configuration.listenBacklog),
            reuse_address: daemons > 1 ? 1 : 0,
            bind_address: address.sockaddrPointer,
            completed: larder_memo_completed,
            completed_context: UnsafeMutableRawPointer(memoOwner),
            uri_log: larder_memo_uri_log,
            uri_log_context: UnsafeMutableRawPointer(memoOwner),
            log_sink: sink,
            // Several daemons count their connections together, not each its own.
            shared_limits: daemons > 1
                ? larder_shared_limits_create(UInt32(configuration.maxConnections), UInt32(configuration.maxConnectionsPerIP))
                : nil
        )
        do throws(HTTPServerError) {
            try state.withLock { running throws(HTTPServerError) in
                guard running.daemons.isEmpty, !running.stopping else { throw .alreadyStarted }
                // Sockets sharing a port would join another server's on it rather than fail.
                if daemons > 1, configuration.port != 0 {
                    let failed = larder_address_is_free(address.sockaddrPointer)
                    guard failed == 0 else {
                        throw .cannotListen(
                            host: configuration.host, port: configuration.port, reason: String(cString: strerror(failed)))
                    }
                }
                var started: [OpaquePointer] = []
                var loops: [UnsafeMutablePointer<larder_epoll_loop>] = []
                do throws(HTTPServerError) {
                    for _ in 0..<daemons {
                        var daemonOptions = options
                        #if DEBUG
                        if started.isEmpty, let limit = configuration.faults.firstLoopConnectionMemoryLimit {
                            daemonOptions.connection_memory_limit = limit
                        }
                        #endif
                        guard let daemon = larder_start_daemon(
                            flags, &daemonOptions, larder_memo_access, UnsafeMutableRawPointer(memoOwner))
                        else {
                            throw HTTPServerError.cannotListen(
                                host: configuration.host, port: configuration.port,
                                reason: lastLibraryMessage.withLock { $0 } ?? "address in use or not available")
                        }
                        started.append(daemon)
                        // The next daemons bind the port the first one got (`--port 0`).
                        larder_sockaddr_set_port(address.mutableSockaddrPointer, larder_daemon_port(daemon))
                        let loop = UnsafeMutablePointer<larder_epoll_loop>.allocate(capacity: 1)
                        let failed = larder_epoll_loop_start(loop, daemon)
                        guard failed == 0 else {
                            loop.deallocate()
                            throw HTTPServerError.cannotListen(
                                host: configuration.host, port: configuration.port,
                                reason: "cannot start the server thread: \(String(cString: strerror(failed)))")
                        }
                        loops.append(loop)
                    }
                } catch {
                    Self.stop(loops: loops, daemons: started)
                    throw error
                }
                // The access log lines every request: the memo answers none then.
                larder_memo_set_enabled(memoOwner, configuration.answerMemo && !accessLogEnabled ? 1 : 0)
                running = Running(
                    daemons: started, address: address, logSink: sink, loops: loops, sharedLimits: options.shared_limits,
                    port: Int(larder_daemon_port(started[0])))
            }
            if hostsOpenByDefault {
                logger.notice("""
                    bound to \(configuration.host), not a loopback address: answering any Host; set --allowed-hosts \
                    (LARDER_ALLOWED_HOSTS) to the names this server is reached by, against DNS rebinding
                    """)
            }
        } catch {
            // Not started: the daemons that were are stopped, so nothing counts with it any more.
            if let limits = options.shared_limits { larder_shared_limits_destroy(limits) }
            address.deallocate()
            sink.deallocate()
            this.release()
            throw error
        }
    }

    /// Ends the loops (joining their threads), then stops the daemons, which close their connections.
    private static func stop(loops: [UnsafeMutablePointer<larder_epoll_loop>], daemons: [OpaquePointer]) {
        for loop in loops {
            larder_epoll_loop_stop(loop)
            loop.deallocate()
        }
        for daemon in daemons { MHD_stop_daemon(daemon) }
    }

    /// Turns new requests away (503), lets requests in flight finish for up to `drainTimeout`,
    /// answers still-suspended requests with 503, then closes every connection and joins the threads.
    public func stop(drainTimeout: Duration? = nil) async {
        let started: Bool = state.withLock { running in
            guard !running.stopping, !running.daemons.isEmpty else { return false }
            running.stopping = true
            return true
        }
        guard started else { return }
        // Not MHD_quiesce_daemon: 0.9.75 can race its own threads there and abort the process.
        isStopping.store(true, ordering: .releasing)
        larder_memo_set_enabled(memoOwner, 0)
        await waitForIdle(upTo: drainTimeout ?? configuration.drainTimeout)
        cancelSuspended()
        await waitForIdle(upTo: .milliseconds(500))
        let running = state.withLock { running in
            defer { running = Running(stopping: true) }
            return running
        }
        // The loops end first: MHD_stop_daemon then closes the connections on this thread.
        Self.stop(loops: running.loops, daemons: running.daemons)
        if let limits = running.sharedLimits { larder_shared_limits_destroy(limits) }
        running.address?.deallocate()
        running.logSink?.deallocate()
        // Balances the retain taken in `start` for libmicrohttpd's callbacks.
        Unmanaged.passUnretained(self).release()
    }

    /// The answer to requests that arrive, or are still suspended, while the server stops.
    static let shuttingDown: HTTPError = {
        var error = HTTPError.serviceUnavailable("the server is shutting down", retryAfterSeconds: 1)
        error.headers.add("Connection", "close")
        return error
    }()

    /// The answer to a request whose own response libmicrohttpd could not allocate.
    static let outOfMemory: HTTPError = {
        var error = HTTPError.serviceUnavailable("the server is out of memory for this answer", retryAfterSeconds: 1)
        error.headers.add("Connection", "close")
        return error
    }()

    private func waitForIdle(upTo limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while inFlight.load(ordering: .acquiring) + larder_memo_in_flight(memoOwner) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private func cancelSuspended() {
        state.withLock { running in
            for context in running.suspended.values {
                context.resumedResponse = Self.shuttingDown.response
                if let connection = context.connection { MHD_resume_connection(connection) }
            }
            running.suspended.removeAll()
        }
    }
}
