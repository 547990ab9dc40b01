import LarderFreshness
import LarderServing

/// A resource card's list of upstreams, in priority order, each with its breaker state, last success
/// and last error (SPEC §4.12). Shown only for a list: one upstream's health is the card itself.
enum UpstreamList {
    static func render(_ upstreams: [UpstreamReport]) -> String {
        guard upstreams.count > 1 else { return "" }
        var html = "<ol class=\"upstreams\">\n"
        for upstream in upstreams {
            let report = upstream.report
            html += "<li><code>\(HTML.escape(upstream.label))</code> (format <code>\(HTML.escape(upstream.format))</code>): "
            html += "<span class=\"badge \(report.state == .closed ? "fresh" : "stale")\">\(state(report.state))</span>"
            html += "; last success " + PageFormat.time(report.lastSuccess, absent: "never")
            if let served = report.served { html += ", served \(HTML.escape(served))" }
            if report.behind {
                html += "; <span class=\"badge stale\">behind</span> newest day \(HTML.escape(report.newestDay ?? "unknown")), asked after the up-to-date ones"
            }
            if let error = report.lastError {
                html += "; last error <span class=\"error\">\(HTML.escape(error.message))</span> (<code>\(HTML.escape(error.kind.rawValue))</code>"
                if let at = report.lastErrorAt { html += ", " + PageFormat.time(at) }
                html += ")"
            }
            if report.consecutiveFailures > 0 {
                html += "; " + PageFormat.count(report.consecutiveFailures, "failure") + " in a row"
            }
            html += "</li>\n"
        }
        return html + "</ol>\n"
    }

    /// The breaker's state in words, not by colour alone.
    private static func state(_ state: UpstreamHealth.State) -> String {
        switch state {
        case .closed: "in use"
        case .open: "skipped (breaker open)"
        case .halfOpen: "to be retried"
        }
    }
}
