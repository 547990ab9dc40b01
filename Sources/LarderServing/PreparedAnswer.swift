public import LarderHTTP
import Synchronization

/// The hot path's answers for one representation: the 200 and the 304, built at most once per
/// second (when `Age` and `max-age` change) and shared by every request in that second.
public final class PreparedAnswer: Sendable {
    private struct Built {
        let state: CacheState
        let ok: PreparedResponse
        let notModified: PreparedResponse
    }

    public let representation: Representation
    /// A past day or range that never changes again: `Cache-Control: …, immutable` (SPEC §3).
    public let immutable: Bool
    private let built = Mutex<Built?>(nil)

    public init(_ representation: Representation, immutable: Bool = false) {
        self.representation = representation
        self.immutable = immutable
    }

    public func response(for request: Request, state: CacheState) -> Response {
        let notModified = ConditionalRequest.isNotModified(
            request.headers, etag: representation.etag, lastModified: representation.lastModified)
        let current = responses(for: state)
        return Response(prepared: notModified ? current.notModified : current.ok)
    }

    private func responses(for state: CacheState) -> Built {
        if let built = built.withLock({ $0 }), Self.sameSecond(built.state, state) {
            return built
        }
        var headers = CachedAnswer.validators(representation, state, immutable: immutable)
        let notModified = PreparedResponse(status: .notModified, headers: headers, body: SharedBytes([]))
        headers.add("Content-Type", representation.contentType)
        let fresh = Built(
            state: state, ok: PreparedResponse(status: .ok, headers: headers, body: representation.body),
            notModified: notModified)
        built.withLock { $0 = fresh }
        return fresh
    }

    /// Two states give the same headers when the second, the confirmation time and the detail agree.
    private static func sameSecond(_ a: CacheState, _ b: CacheState) -> Bool {
        a.second == b.second && a.fetchedAt == b.fetchedAt && a.staleDetail == b.staleDetail && a.expiresAt == b.expiresAt
    }
}
