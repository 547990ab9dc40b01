import Foundation
public import LarderHTTP
import Synchronization

/// The hot path's answers for one representation: the 200 and the 304, built at most once per
/// second (when `Age` and `max-age` change) and shared by every request in that second — for each
/// encoding asked for: identity, and gzip for a body over 1 KiB.
public final class PreparedAnswer: Sendable {
    /// One second's answers; a class, so a request takes one reference out of the lock, not a copy
    /// of the state and both responses (three retains and their releases, on every request).
    private final class Built: Sendable {
        let state: CacheState
        let ok: PreparedResponse
        let notModified: PreparedResponse
        /// Both, for the server's memo, when the state permits it.
        let memo: AnswerMemo?

        init(state: CacheState, ok: PreparedResponse, notModified: PreparedResponse, etag: String) {
            self.state = state
            self.ok = ok
            self.notModified = notModified
            memo = state.memo.map { permit in
                AnswerMemo(
                    ok: ok, notModified: notModified, etag: etag, changes: permit.changes, generation: permit.generation,
                    validUntil: Self.validUntil(state), hit: permit.hit)
            }
        }

        /// The end of the state's second (`Date` and `Age` change), or its expiry if sooner, in nanoseconds.
        private static func validUntil(_ state: CacheState) -> Int64 {
            let secondEnd = Int64(state.second + 1) * 1_000_000_000
            let expiry = state.expiresAt.timeIntervalSince1970
            guard expiry < Double(state.second + 1) else { return secondEnd }
            return max(0, Int64(expiry * 1e9))
        }
    }

    /// The request headers an answer reads, for lean routes to collect (`Router.add(_:_:reads:_:)`).
    public static let requestHeaders = ConditionalRequest.headers + [AcceptEncoding.header, "Range"]

    public let representation: Representation
    /// A past day or range that never changes again: `Cache-Control: …, immutable` (SPEC §3).
    public let immutable: Bool
    /// Request fields besides `Accept-Encoding` that choose this representation (`Accept` for `/v2/rates`), sent as `Vary`.
    public let vary: String?
    private let identity = Mutex<Built?>(nil)
    private let gzip = Mutex<Built?>(nil)

    public init(_ representation: Representation, immutable: Bool = false, vary: String? = nil) {
        self.representation = representation
        self.immutable = immutable
        self.vary = vary
    }

    /// The 200 or 304 in the encoding the request prefers. A body of 1 KiB or less has identity
    /// only, and nothing more is looked at (the `/rates` hot path). A request carrying
    /// `Range` gets identity: a range counts the bytes of the representation the server selects
    /// (RFC 9110 §14.2), and Larder's ranges are of identity bytes only; these whole-body answers
    /// then ignore the range itself, as §14.2 allows and as before.
    public func response(for request: Request, state: CacheState) -> Response {
        if let variant = representation.gzip, request.prefersGzip, request.headers["Range"] == nil,
           let bytes = variant.bytes {
            return answer(request, state, in: gzip, etag: variant.etag) {
                build($0, etag: variant.etag, body: bytes, gzip: true)
            }
        }
        return answer(request, state, in: identity, etag: representation.etag) {
            build($0, etag: representation.etag, body: representation.body, gzip: false)
        }
    }

    /// The 304 when the request's validators match `etag`, else the 200, both of `state`'s second.
    private func answer(
        _ request: Request, _ state: CacheState, in slot: borrowing Mutex<Built?>, etag: String,
        _ build: (CacheState) -> Built
    ) -> Response {
        let notModified = ConditionalRequest.isNotModified(
            request.headers, etag: etag, lastModified: representation.lastModified)
        let current: Built
        if let built = slot.withLock({ $0 }), Self.sameSecond(built.state, state) {
            current = built
        } else {
            current = build(state)
            slot.withLock { $0 = current }
        }
        return Response(prepared: notModified ? current.notModified : current.ok, memo: current.memo)
    }

    /// A body with a gzip variant says so with `Vary` in every answer, 304s included (RFC 9110
    /// §15.4.5); `Content-Encoding`, like `Content-Type`, goes on the 200 only.
    /// `Date` is written here, once per second, from the same clock as `Age` and `Last-Modified`:
    /// libmicrohttpd then adds none of its own (formatting one cost each request some 650 instructions).
    private func build(_ state: CacheState, etag: String, body: SharedBytes, gzip: Bool) -> Built {
        var headers: HTTPHeaders = ["Date": HTTPDate.format(secondsSince1970: state.second)]
        for field in CachedAnswer.validators(representation, state, immutable: immutable, etag: etag) {
            headers.add(field.name, field.value)
        }
        if let vary { headers.add("Vary", vary) }
        if representation.gzip != nil { headers.add("Vary", AcceptEncoding.header) }
        let notModified = PreparedResponse(status: .notModified, headers: headers, body: SharedBytes([]))
        headers.add("Content-Type", representation.contentType)
        if gzip { headers.add("Content-Encoding", "gzip") }
        return Built(
            state: state, ok: PreparedResponse(status: .ok, headers: headers, body: body), notModified: notModified, etag: etag)
    }

    /// Two states give the same headers when the second, the confirmation time and the detail agree.
    /// The seconds are compared rounded down here (`CacheState.second` also clamps them to the dates
    /// HTTP can write, through a rounding rule passed at run time): equal for every date that matters,
    /// and at worst a rebuilt answer where they are not. Runs on every request.
    private static func sameSecond(_ a: CacheState, _ b: CacheState) -> Bool {
        a.now.timeIntervalSince1970.rounded(.down) == b.now.timeIntervalSince1970.rounded(.down)
            && a.fetchedAt == b.fetchedAt && a.staleDetail == b.staleDetail && a.expiresAt == b.expiresAt
            && a.memo?.generation == b.memo?.generation
    }
}
