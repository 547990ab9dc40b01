import CMicroHTTPD
import Glibc
import Logging
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a thread pool with epoll, a router, suspend/resume for
/// handlers that `await`, and a graceful stop.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    let router: Router
    let logger: Logger
    let onListening: (@Sendable (_ host: String, _ port: Int) -> Void)?
    private let accessLogEnabled: Bool

    // Raw libmicrohttpd pointers, only touched under `state`'s lock.
    private struct Running: @unchecked Sendable {
        var daemon: OpaquePointer?
        var address: BindAddress?
        var logSink: UnsafeMutablePointer<larder_log_sink>?
        var port = 0
        var stopping = false
        /// Requests whose connection is suspended while their handler runs.
        var suspended: [ObjectIdentifier: RequestContext] = [:]
    }

    private let state = Mutex(Running())
    /// Requests between their request line and their completion, for the graceful stop.
    private let inFlight = Atomic<Int>(0)
    private let lastLibraryMessage = Mutex<String?>(nil)

    /// `onListening` is called with the real host and port each time `run()` has started listening.
    public init(
        configuration: ServerConfiguration, router: Router, logger: Logger,
        onListening: (@Sendable (_ host: String, _ port: Int) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.onListening = onListening
        accessLogEnabled = logger.logLevel <= .debug
    }

    /// The port the server listens on (the real one when started with port 0); 0 before `start`.
    public var port: Int { state.withLock { $0.port } }

    /// Binds and starts serving on libmicrohttpd's threads; returns once listening.
    public func start() throws(HTTPServerError) {
        // Writes to a closed socket must fail with EPIPE, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let address = try BindAddress(host: configuration.host, port: configuration.port)
        let sink = UnsafeMutablePointer<larder_log_sink>.allocate(capacity: 1)
        let this = Unmanaged.passRetained(self)
        sink.initialize(to: larder_log_sink(fn: larderMHDLog, context: this.toOpaque()))

        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ITC.rawValue | MHD_USE_TURBO.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options = larder_daemon_options(
            thread_pool_size: UInt32(max(1, configuration.threads)),
            connection_timeout_seconds: UInt32(max(1, configuration.connectionTimeoutSeconds)),
            connection_limit: UInt32(configuration.maxConnections),
            per_ip_connection_limit: UInt32(configuration.maxConnectionsPerIP),
            connection_memory_limit: configuration.connectionMemoryLimit,
            listen_backlog: UInt32(configuration.listenBacklog),
            bind_address: address.sockaddrPointer,
            completed: larderRequestCompleted,
            completed_context: this.toOpaque(),
            uri_log: larderURILog,
            uri_log_context: this.toOpaque(),
            log_sink: sink
        )
        do {
            try state.withLock { running throws(HTTPServerError) in
                guard running.daemon == nil, !running.stopping else { throw .alreadyStarted }
                guard let daemon = larder_start_daemon(flags, &options, larderAccessHandler, this.toOpaque()) else {
                    throw .cannotListen(
                        host: configuration.host, port: configuration.port,
                        reason: lastLibraryMessage.withLock { $0 } ?? "address in use or not available")
                }
                running = Running(daemon: daemon, address: address, logSink: sink, port: Int(larder_daemon_port(daemon)))
            }
        } catch {
            address.deallocate()
            sink.deallocate()
            this.release()
            throw error
        }
    }

    /// Stops accepting, lets requests in flight finish for up to `drainTimeout`, answers still-suspended
    /// requests with 503, then closes every connection and joins libmicrohttpd's threads.
    public func stop(drainTimeout: Duration? = nil) async {
        let daemon: OpaquePointer? = state.withLock { running in
            guard !running.stopping else { return nil }
            running.stopping = true
            return running.daemon
        }
        guard let daemon else { return }
        // libmicrohttpd's threads may still touch the quiesced socket: close it only after the stop,
        // or its descriptor number could be reused meanwhile and someone else's socket closed.
        let listener = MHD_quiesce_daemon(daemon)
        await waitForIdle(upTo: drainTimeout ?? configuration.drainTimeout)
        cancelSuspended()
        await waitForIdle(upTo: .milliseconds(500))
        MHD_stop_daemon(daemon)
        if listener >= 0 { close(listener) }
        let running = state.withLock { running in
            defer { running = Running(stopping: true) }
            return running
        }
        running.address?.deallocate()
        running.logSink?.deallocate()
        // Balances the retain taken in `start` for libmicrohttpd's callbacks.
        Unmanaged.passUnretained(self).release()
    }

    private func waitForIdle(upTo limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while inFlight.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private func cancelSuspended() {
        state.withLock { running in
            for context in running.suspended.values {
                context.resumedResponse = HTTPError.serviceUnavailable("the server is shutting down", retryAfterSeconds: 1).response
                if let connection = context.connection { MHD_resume_connection(connection) }
            }
            running.suspended.removeAll()
        }
    }

    // MARK: - Called from libmicrohttpd's threads (Callbacks.swift)

    func beginRequest(targetLength: Int) -> RequestContext {
        inFlight.add(1, ordering: .relaxed)
        return RequestContext(targetLength: targetLength, started: accessLogEnabled ? .now : nil)
    }

    func endRequest(_ context: RequestContext) {
        inFlight.subtract(1, ordering: .releasing)
    }

    func libraryLogged(_ message: String) {
        lastLibraryMessage.withLock { $0 = message }
        logger.debug("libmicrohttpd: \(message)")
    }

    func receiveBody(_ data: UnsafePointer<CChar>?, count: UnsafeMutablePointer<Int>, context: RequestContext) -> MHD_Result {
        let length = count.pointee
        count.pointee = 0
        guard context.body.count + length <= configuration.maxBodyBytes, let data else {
            // libmicrohttpd cannot queue an answer mid-body; a body without a Content-Length that
            // outgrows the limit is cut off by closing the connection.
            logger.debug("request body over \(configuration.maxBodyBytes) bytes; closing the connection")
            return .NO
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
        return .YES
    }

    /// Refuses a declared oversize body on the headers-only callback: the 413 goes out without
    /// reading the body, and libmicrohttpd closes the connection after it, as it should here.
    func refuseOversizeBody(connection: OpaquePointer, context: RequestContext) -> MHD_Result? {
        guard let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
              let length = Int(String(cString: declared)), length > configuration.maxBodyBytes else { return nil }
        context.phase = .answered
        return queue(RequestReader.payloadTooLarge(configuration).response, connection: connection, context: context)
    }

    func answer(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, context: RequestContext
    ) -> MHD_Result {
        let request: Request
        switch RequestReader.read(
            connection: connection, url: url, method: method, context: context, configuration: configuration
        ) {
        case .failure(let error):
            if accessLogEnabled { context.method = String(cString: method); context.path = String(cString: url) }
            return queue(error.response, connection: connection, context: context)
        case .success(let read):
            request = read
        }
        if accessLogEnabled { context.method = request.method.rawValue; context.path = request.rawPath }
        switch router.match(request.method, request.segments) {
        case .notFound:
            return queue(HTTPError.notFound().response, connection: connection, context: context)
        case .methodNotAllowed(let allow):
            return queue(HTTPError.methodNotAllowed(request.method, allow: allow).response, connection: connection, context: context)
        case .found(.immediate(let handle), let parameters):
            var request = request
            request.parameters = parameters
            return queue(handle(request), connection: connection, context: context)
        case .found(.suspending(let handle), let parameters):
            var request = request
            request.parameters = parameters
            return suspend(connection: connection, context: context, request: request, handle: handle)
        }
    }

    func answerResumed(connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        let response = state.withLock { _ in
            defer { context.resumedResponse = nil }
            return context.resumedResponse
        }
        guard let response else { return .NO }
        return queue(response, connection: connection, context: context)
    }

    private func suspend(
        connection: OpaquePointer, context: RequestContext, request: Request,
        handle: @escaping @Sendable (Request) async -> Response
    ) -> MHD_Result {
        let accepted = state.withLock { running in
            guard !running.stopping else { return false }
            MHD_suspend_connection(connection)
            context.connection = connection
            running.suspended[ObjectIdentifier(context)] = context
            return true
        }
        guard accepted else {
            let error = HTTPError.serviceUnavailable("the server is shutting down", retryAfterSeconds: 1)
            return queue(error.response, connection: connection, context: context)
        }
        Task {
            let response = await handle(request)
            self.resume(context, with: response)
        }
        return .YES
    }

    private func resume(_ context: RequestContext, with response: Response) {
        state.withLock { running in
            // Absent when the stop already answered it: the connection may be gone.
            guard running.suspended.removeValue(forKey: ObjectIdentifier(context)) != nil,
                  let connection = context.connection else { return }
            context.resumedResponse = response
            MHD_resume_connection(connection)
        }
    }

    private func queue(_ response: Response, connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        let result: MHD_Result
        switch response.kind {
        case .prepared(let prepared):
            result = MHD_queue_response(connection, UInt32(response.status.rawValue), prepared.pointer)
        case .composed(let headers, let body):
            let made = MHDResponses.make(headers: headers, body: body)
            result = MHD_queue_response(connection, UInt32(response.status.rawValue), made)
            MHD_destroy_response(made)
        }
        if let started = context.started {
            let elapsed = ContinuousClock.now - started
            logger.debug("\(context.method) \(context.path) \(response.status.rawValue)", metadata: [
                "duration_us": "\(elapsed.components.attoseconds / 1_000_000_000_000 + elapsed.components.seconds * 1_000_000)",
            ])
        }
        return result
    }
}
