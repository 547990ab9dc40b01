import CLarderHTTP

/// A prepared answer the server may repeat from C, without running the route again, to later requests
/// for the same target (the answer memo, `answer_memo.c`): the representation's 200 and 304, its
/// `ETag`, and until when they hold.
///
/// A route attaches one to its `Response` only when the answer stays the route's own answer until
/// `validUntil` unless what it was computed from changes, and every such change is counted by `changes`.
public final class AnswerMemo: Sendable {
    let ok: PreparedResponse
    let notModified: PreparedResponse
    /// The `ETag` both carry, as sent (quoted).
    let etag: [UInt8]
    /// Counts the changes to what the answer was computed from; `generation` is its count then.
    let changes: AnswerChanges
    let generation: UInt64
    /// CLOCK_REALTIME nanoseconds since 1970, exclusive: the end of the second the answers' `Date`
    /// and `Age` were written for, or the copy's expiry if sooner.
    let validUntil: Int64
    /// Counts a repeated answer as the route counts its own (a cache hit); nil: nothing to count.
    let hit: (any AnswerMemoHit)?

    /// `generation` is `changes.current` as read before whatever the answer was computed from.
    public init(
        ok: PreparedResponse, notModified: PreparedResponse, etag: String, changes: AnswerChanges, generation: UInt64,
        validUntil: Int64, hit: (any AnswerMemoHit)?
    ) {
        self.ok = ok
        self.notModified = notModified
        self.etag = Array(etag.utf8)
        self.changes = changes
        self.generation = generation
        self.validUntil = validUntil
        self.hit = hit
    }
}

/// Counts the changes to what a set of repeatable answers is computed from (a cache's data and its
/// refresh state): an answer the memo keeps stops at the next one.
public final class AnswerChanges: @unchecked Sendable {
    // A C atomic, read by the memo on every repeat; written only through `changed()`.
    let counter: OpaquePointer

    public init() {
        guard let counter = larder_memo_changes_create() else { fatalError("out of memory for a change count") }
        self.counter = counter
    }

    deinit {
        larder_memo_changes_destroy(counter)
    }

    /// The count now: read it before reading what an answer is computed from.
    public var current: UInt64 { larder_memo_changes_read(counter) }

    /// After any change to what the answers are computed from (new data, a refresh's outcome).
    public func changed() { larder_memo_changes_bump(counter) }
}

/// Counts an answer the memo repeated as its route would have counted it.
public protocol AnswerMemoHit: AnyObject, Sendable {
    func recordHit()
}

/// What one entry of the memo owns (retained from C; only its thread touches it): the answers, and
/// how their repeats are counted.
final class AnswerMemoToken {
    let memo: AnswerMemo
    let route: String
    let observer: (any RequestObserver)?
    /// The observer's counters of the route's 200s and 304s, found at the first repeat of each (a
    /// series the route never answered is not made); only the entry's thread touches them.
    private var ok: (any RouteRecorder)?
    private var notModified: (any RouteRecorder)?
    private var found: (ok: Bool, notModified: Bool) = (false, false)

    init(memo: AnswerMemo, route: String, observer: (any RequestObserver)?) {
        self.memo = memo
        self.route = route
        self.observer = observer
    }

    func answered(status: Int, nanoseconds: Int64) {
        let recorder: (any RouteRecorder)?
        if status == HTTPStatus.notModified.rawValue {
            if !found.notModified { (notModified, found.notModified) = (observer?.recorder(route: route, status: status), true) }
            recorder = notModified
        } else {
            if !found.ok { (ok, found.ok) = (observer?.recorder(route: route, status: status), true) }
            recorder = ok
        }
        if let recorder {
            recorder.record(nanoseconds: nanoseconds)
        } else {
            observer?.requestCompleted(route: route, status: status, nanoseconds: nanoseconds)
        }
        memo.hit?.recordHit()
    }
}

// The memo's callbacks into Swift, on libmicrohttpd's threads.

/// Counts an answer the memo gave, as the route's own would have been counted.
func larderMemoAnswered(_ token: UnsafeMutableRawPointer?, _ status: UInt32, _ nanoseconds: Int64) {
    guard let token else { return }
    Unmanaged<AnswerMemoToken>.fromOpaque(token).takeUnretainedValue().answered(status: Int(status), nanoseconds: nanoseconds)
}

/// Lets go of a dropped entry's token.
func larderMemoRelease(_ token: UnsafeMutableRawPointer?) {
    guard let token else { return }
    Unmanaged<AnswerMemoToken>.fromOpaque(token).release()
}

extension HTTPServer {
    /// Offers the memo the answer just queued for this request: kept when the request is one the memo
    /// can judge again (a GET, header fields it knows), with the CORS headers this request's answer got.
    func offer(_ memo: AnswerMemo, connection: OpaquePointer, context: RequestContext) {
        guard larder_memo_wants(memoOwner, connection) != 0 else { return }
        let ok = context.cors.map { memo.ok.pointer(for: $0.variant, of: $0.policy) } ?? memo.ok.pointer
        let notModified = context.cors.map { memo.notModified.pointer(for: $0.variant, of: $0.policy) } ?? memo.notModified.pointer
        guard let ok, let notModified else { return }
        let token = Unmanaged.passRetained(AnswerMemoToken(memo: memo, route: context.route, observer: observer)).toOpaque()
        memo.etag.withUnsafeBufferPointer { etag in
            etag.withMemoryRebound(to: CChar.self) { etag in
                var answer = larder_memo_answer(
                    ok: ok, not_modified: notModified, etag: etag.baseAddress, etag_length: etag.count,
                    corked: memo.ok.isCorked ? 1 : 0, changes: memo.changes.counter, generation: memo.generation,
                    valid_until: memo.validUntil,
                    token: token)
                _ = larder_memo_publish(memoOwner, connection, &answer)
            }
        }
    }
}
