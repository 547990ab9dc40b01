/// Per-request state libmicrohttpd keeps for us between callbacks (its `con_cls`).
///
/// libmicrohttpd calls back for one connection on one thread at a time, so the fields are touched
/// by one thread at a time; `resumedResponse` is handed over under the server's suspension lock.
final class RequestContext: @unchecked Sendable {
    enum Phase {
        /// The first callback (headers only) has not come yet; it must never answer.
        case awaitingHeaders
        /// Reading the body, if any.
        case reading
        /// A response is queued or the connection is suspended waiting for one.
        case answered
    }

    var phase: Phase = .awaitingHeaders
    /// The socket corked for this request's large answer, uncorked when it is done; -1 when none.
    var corkedSocket: Int32 = -1
    /// Length of the raw request target (path and query), seen before libmicrohttpd splits it.
    let targetLength: Int
    var body: [UInt8] = []
    /// Set while a suspending handler runs, for the resume.
    var connection: OpaquePointer?
    /// The answer of a suspending handler, queued when libmicrohttpd calls back after the resume.
    var resumedResponse: Response?
    /// When the request arrived (`MonotonicNanoseconds`), if access logging or an observer is on; else 0.
    let started: Int64
    var method = ""
    var path = ""
    /// The matched route pattern, for the observer.
    var route = "unmatched"
    /// The CORS headers this request's answer carries (SPEC §3), decided from its route and Origin.
    var cors: (policy: CORSPolicy, variant: CORSVariant)?

    init(targetLength: Int, started: Int64) {
        self.targetLength = targetLength
        self.started = started
    }
}
