import LarderDocumentsCache
import LarderFreshness
import LarderRatesCache

/// Whether Larder can answer (SPEC §3 `/ready`): every configured resource has data. `GET /ready` and
/// `larder_ready` both read it, so the page and the alert never disagree.
struct Readiness: Sendable {
    let rates: RatesCache?
    let documents: DocumentsCache?

    /// Why Larder is not ready, one line a resource; empty when it is.
    var reasons: [String] {
        var reasons: [String] = []
        if let rates, !rates.hasData {
            reasons.append("rates: nothing cached yet" + Self.lastError(rates.refresher.status))
        }
        if let documents, !documents.hasData {
            reasons.append("documents: no index accepted yet" + Self.lastError(documents.refresher.status))
        }
        return reasons
    }

    var isReady: Bool { reasons.isEmpty }

    private static func lastError(_ status: RefreshStatus) -> String {
        status.lastError.map { " (last fetch failed: \($0.message))" } ?? " (the first fetch is running)"
    }
}
