import Foundation
import LarderFreshness
import LarderHTTP

/// Answers for a request that found nothing cached (SPEC §4.5).
enum ColdCache {
    /// A 503 at once when the last fetch failed and the next is not due yet: cold requests must not
    /// hammer an upstream that is down.
    static func refusalWhileBackingOff<Outcome>(_ refresher: Refresher<Outcome>, what: String) -> HTTPError? {
        let status = refresher.status
        let now = refresher.clock.now
        guard !refresher.isRefreshing, let retryAt = status.retryAt, retryAt > now else { return nil }
        let wait = max(1, Int(retryAt.timeIntervalSince(now).rounded(.up)))
        let reason = status.lastError?.message ?? "the upstream failed"
        return HTTPError.serviceUnavailable(
            "\(what) are not cached yet and the last fetch failed (\(reason)); next attempt in \(wait) s",
            retryAfterSeconds: wait)
    }

    /// The 503 after waiting: the fetch failed, or is still running after the wait.
    static func unavailable<Outcome>(_ result: Result<Outcome, RefreshError>?, what: String) -> HTTPError {
        switch result {
        case .failure(let error):
            return .serviceUnavailable("\(what) are not cached yet and the upstream fetch failed: \(error.message)",
                                       retryAfterSeconds: 5)
        case .success, nil:
            return .serviceUnavailable("\(what) are not cached yet: the first fetch from the upstream is still running",
                                       retryAfterSeconds: 5)
        }
    }
}
