import CLarderHTTP
import CMicroHTTPD
import Glibc
import Logging
import Synchronization

// The request side of the server, called from libmicrohttpd's threads through Callbacks.swift.
extension HTTPServer {
    func beginRequest(targetLength: Int) -> RequestContext {
        inFlight.add(1, ordering: .relaxed)
        return RequestContext(
            targetLength: targetLength, started: accessLogEnabled || observer != nil ? MonotonicNanoseconds.now : 0)
    }

    func endRequest(_ context: RequestContext) {
        if context.corkedSocket >= 0 { larder_uncork(context.corkedSocket) }
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
        if let refused = RequestReader.refusal(
            connection: connection, method: method, context: context, router: router, configuration: configuration,
            hosts: hosts, owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        ) {
            if let observer, let reason = RefusalReason(rawValue: refused.code) { observer.requestRefused(reason) }
            return refuse(refused, connection: connection, url: url, method: method, context: context)
        }
        // A lean route's request goes straight to its handler: no `Router.Match` is made and taken apart.
        if let (request, route) = RequestReader.readLean(
            connection: connection, url: url, method: method, context: context, router: router, configuration: configuration
        ) {
            if let stopping = begin(request, connection: connection, context: context) { return stopping }
            return run(route.handler, request, route: route.text, cors: route.cors, connection: connection, context: context)
        }
        var request: Request
        switch RequestReader.read(
            connection: connection, url: url, method: method, context: context, configuration: configuration
        ) {
        case .failure(let error):
            return refuse(error, connection: connection, url: url, method: method, context: context)
        case .success(let read):
            request = read
        }
        let match = router.match(request.method, request.segments)
        if let stopping = begin(request, connection: connection, context: context) { return stopping }
        switch match {
        case .notFound:
            return queue(HTTPError.notFound().response, connection: connection, context: context)
        case .methodNotAllowed(let allow):
            return queue(HTTPError.methodNotAllowed(request.method, allow: allow).response, connection: connection, context: context)
        case .preflight(let policy, let route):
            context.route = route
            let preflight = policy.preflight(
                origin: request.headers["Origin"], method: request.headers["Access-Control-Request-Method"])
            return queue(preflight, connection: connection, context: context)
        case .found(let handler, let parameters, let route, let cors):
            request.parameters = parameters
            return run(handler, request, route: route, cors: cors, connection: connection, context: context)
        }
    }

    /// Notes the request for the access log; the 503 when the server is stopping, else nil.
    private func begin(_ request: Request, connection: OpaquePointer, context: RequestContext) -> MHD_Result? {
        if accessLogEnabled { context.method = request.method.rawValue; context.path = request.rawPath }
        guard isStopping.load(ordering: .relaxed) else { return nil }
        return queue(Self.shuttingDown.response, connection: connection, context: context)
    }

    /// Runs the matched route's handler: answers now or suspends the connection until it has.
    private func run(
        _ handler: Handler, _ request: Request, route: String, cors: CORSPolicy, connection: OpaquePointer,
        context: RequestContext
    ) -> MHD_Result {
        context.route = route
        context.cors = cors.variant(origin: request.headers["Origin"]).map { (cors, $0) }
        switch handler {
        case .immediate(let handle):
            return queue(handle(request), connection: connection, context: context)
        case .suspending(let handle):
            return suspend(connection: connection, context: context, request: request, handle: handle)
        case .adaptive(let decide):
            switch decide(request) {
            case .now(let response):
                return queue(response, connection: connection, context: context)
            case .later(let handle):
                return suspend(connection: connection, context: context, request: request, handle: handle)
            }
        }
    }

    private func refuse(
        _ error: HTTPError, connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        context: RequestContext
    ) -> MHD_Result {
        if accessLogEnabled { context.method = String(cString: method); context.path = String(cString: url) }
        return queue(error.response, connection: connection, context: context)
    }

    func answerResumed(connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        let response = state.withLock { _ in
            defer { context.resumedResponse = nil }
            return context.resumedResponse
        }
        guard let response else { return .NO }
        return queue(response, connection: connection, context: context)
    }

    func suspend(
        connection: OpaquePointer, context: RequestContext, request: Request,
        handle: @escaping @Sendable (Request) async -> Response
    ) -> MHD_Result {
        let accepted = state.withLock { running in
            // The handler's `resume` takes this lock, so it finds the connection suspended and recorded.
            guard !running.stopping, background.submit({
                let response = await handle(request)
                self.resume(context, with: response)
            }) else { return false }
            MHD_suspend_connection(connection)
            context.connection = connection
            running.suspended[ObjectIdentifier(context)] = context
            return true
        }
        guard accepted else {
            return queue(Self.shuttingDown.response, connection: connection, context: context)
        }
        return .YES
    }

    func resume(_ context: RequestContext, with response: Response) {
        state.withLock { running in
            // Absent when the stop already answered it: the connection may be gone.
            guard running.suspended.removeValue(forKey: ObjectIdentifier(context)) != nil,
                  let connection = context.connection else { return }
            context.resumedResponse = response
            MHD_resume_connection(connection)
        }
    }

    func queue(_ response: Response, connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        var status = response.status.rawValue
        var result: MHD_Result
        switch response.kind {
        case .prepared(let prepared):
            if prepared.isCorked { cork(connection, context) }
            let pointer = context.cors.map { prepared.pointer(for: $0.variant, of: $0.policy) } ?? prepared.pointer
            if let pointer, !injectedAllocationFailure() {
                result = MHD_queue_response(connection, UInt32(status), pointer)
                if result == .YES, let memo = response.memo { offer(memo, connection: connection, context: context) }
            } else {
                (status, result) = queueAllocationFailure(connection)
            }
        case .composed(var headers, let body):
            if let (policy, variant) = context.cors {
                for field in policy.headers(variant) { headers.add(field.name, field.value) }
            }
            if body.isCorked { cork(connection, context) }
            if !injectedAllocationFailure(), let made = MHDResponses.make(headers: headers, body: body) {
                result = MHD_queue_response(connection, UInt32(status), made)
                MHD_destroy_response(made)
            } else {
                (status, result) = queueAllocationFailure(connection)
            }
        }
        if context.started != 0 {
            let elapsed = MonotonicNanoseconds.now - context.started
            observer?.requestCompleted(route: context.route, status: status, nanoseconds: elapsed)
            guard accessLogEnabled else { return result }
            logger.debug("\(context.method) \(context.path) \(status)", metadata: [
                "duration_us": "\(elapsed / 1000)",
            ])
        }
        return result
    }

    /// Corks the socket for the answer, uncorked when the request is done (`endRequest`), as nginx's
    /// `tcp_nopush` does: libmicrohttpd pushes the header alone, then the body's segments.
    private func cork(_ connection: OpaquePointer, _ context: RequestContext) {
        guard context.corkedSocket < 0 else { return }
        context.corkedSocket = larder_cork(connection)
    }

    /// Queues the 503 made at start in place of an answer libmicrohttpd could not allocate (never a
    /// trap: nginx answers such a moment with an error too); without it, closes the connection.
    private func queueAllocationFailure(_ connection: OpaquePointer) -> (status: Int, result: MHD_Result) {
        observer?.responseAllocationFailed()
        let status = HTTPStatus.serviceUnavailable.rawValue
        guard let allocationFailure else { return (status, .NO) }
        return (status, MHD_queue_response(connection, UInt32(status), allocationFailure))
    }

    /// True when a test made this answer fail to allocate (debug builds only; release builds have no check).
    @inline(__always)
    private func injectedAllocationFailure() -> Bool {
        #if DEBUG
        configuration.faults.failingResponses.take()
        #else
        false
        #endif
    }
}
