import LarderRatesCache
import LarderDocumentsCache

/// The resources part of the page: one card per resource with its freshness, record, last error in
/// words, schedule and counts, and a Refresh button (shown by the script, which does the POST).
enum ResourceCards {
    static func render(_ report: StatusReport, adminTokenRequired: Bool) -> String {
        var html = """
            <section aria-labelledby="resources-heading">
            <h2 id="resources-heading">Resources</h2>

            """
        if adminTokenRequired {
            // Outside every swapped region, so a typed token survives the page's updates; the script
            // reads it at each refresh and keeps it nowhere else.
            html += """
                <form id="admin" class="admin" hidden>
                <label for="admin-token">Admin token</label>
                <input id="admin-token" name="token" type="password" autocomplete="off" spellcheck="false" \
                aria-describedby="admin-token-hint">
                <p id="admin-token-hint" class="hint">Larder was started with <code>--admin-token</code>: \
                refreshing needs it. The page keeps it in memory only, for as long as it is open.</p>
                </form>

                """
        }
        html += "<div class=\"cards\">\n"
        html += card("rates", title: "Rates", report.rates, flag: "--rates-url", variable: "LARDER_RATES_URL")
        html += card(
            "documents", title: "Documents", report.documents, flag: "--documents-url", variable: "LARDER_DOCUMENTS_URL")
        html += "</div>\n</section>\n"
        return html
    }

    private static func card(
        _ resource: String, title: String, _ report: ResourceReport?, flag: String, variable: String
    ) -> String {
        var html = """
            <article class="card" id="card-\(resource)" aria-labelledby="card-\(resource)-title">
            <h3 id="card-\(resource)-title">\(title)</h3>

            """
        guard let report else {
            return html + """
                <p>Not configured: start Larder with <code>\(flag)</code> (or <code>\(variable)</code>).</p>
                </article>

                """
        }
        html += "<div data-region=\"card-\(resource)\">\n"
        html += state(report)
        html += "<dl>\n"
        html += row("Upstream", "<code>\(HTML.escape(report.upstream))</code> (format <code>\(HTML.escape(report.format))</code>)")
        html += row("Age", report.fetchedAt.map { "fetched " + PageFormat.time($0) } ?? "never fetched")
        html += row("Last success", PageFormat.time(report.lastSuccess, absent: "never"))
        html += row("Last attempt", PageFormat.time(report.lastAttempt, absent: "never"))
        html += row("Last error", lastError(report))
        html += schedule(report)
        html += row("Holds", counts(report.counts))
        if let check = report.crossCheck {
            html += row("Cross-check", CrossCheckSummary.render(check))
        }
        if let mirror = report.mirror {
            let left = mirror.secondsLeft.map { ", about \(PageFormat.count(max(1, ($0 + 59) / 60))) min left" } ?? ""
            let skipped = mirror.skipped.isEmpty ? "" : "; skipped " + mirror.skipped.map { "\($0.key) (\($0.reason))" }.joined(separator: ", ")
                + (mirror.bounded.isEmpty ? "" : "; " + mirror.bounded.map { "\($0.key) \($0.reason)" }.joined(separator: ", "))
            html += row("Mirror", HTML.escape(
                "\(mirror.providersComplete) of \(mirror.providersTotal) providers synced, \(PageFormat.count(mirror.rows)) rows, "
                    + "\(PageFormat.count(mirror.windowsDone)) of \(PageFormat.count(mirror.windowsTotal)) requests "
                    + (mirror.running ? "done" : "done when the sync stopped") + left + skipped))
        }
        if let sync = report.sync, sync.running {
            html += row("Sync", "\(PageFormat.count(sync.done)) of \(PageFormat.count(sync.total)) downloads done "
                + "(\(PageFormat.size(sync.bytes))), \(PageFormat.count(sync.failed)) failed")
        }
        html += "</dl>\n"
        html += UpstreamList.render(report.upstreams)
        html += "</div>\n"
        html += """
            <div class="refresh" data-needs-script hidden>
            <button type="button" data-refresh="\(resource)">Refresh \(title.lowercased())</button>
            <p class="outcome" id="outcome-\(resource)" role="status" aria-live="polite"></p>
            </div>
            <noscript><p class="hint">Refreshing from this page needs JavaScript; \
            <code>POST /\(resource)/refresh</code> does the same (with the admin token, when one is set).</p></noscript>
            </article>

            """
        return html
    }

    /// Fresh or stale, in words and not by colour alone, and whether a refresh is running now.
    private static func state(_ report: ResourceReport) -> String {
        var html = "<p class=\"state\">"
        if report.fetchedAt == nil {
            html += "<span class=\"badge stale\">Nothing cached</span>"
        } else if report.stale {
            html += "<span class=\"badge stale\">Stale</span> the cached copy is served until the upstream delivers"
        } else {
            html += "<span class=\"badge fresh\">Fresh</span>"
        }
        if report.refreshing { html += " <span class=\"badge busy\">Refreshing now</span>" }
        return html + "</p>\n"
    }

    private static func lastError(_ report: ResourceReport) -> String {
        guard let error = report.lastError else { return "none" }
        var html = "<span class=\"error\">\(HTML.escape(error.message))</span> (<code>\(HTML.escape(error.kind))</code>"
        if let at = error.at { html += ", " + PageFormat.time(at) }
        html += ")"
        if report.consecutiveFailures > 0 {
            html += "; " + PageFormat.count(report.consecutiveFailures, "failure") + " in a row"
        }
        return html
    }

    private static func schedule(_ report: ResourceReport) -> String {
        guard let publication = report.publication, publication.schedule == "ecb" else {
            return row("Next refresh", PageFormat.time(report.nextRefresh, absent: "not scheduled yet"))
                + row("Schedule", "every \(PageFormat.duration(seconds: report.ttlSeconds)) (TTL)")
        }
        return row("Next refresh", PageFormat.time(report.nextRefresh, absent: "not scheduled yet"))
            + row("Next publication", PageFormat.time(publication.next, absent: "not known yet")
                + " expected; " + PageFormat.count(publication.missed, "publication") + " missed")
            + row("Schedule", "the ECB's publication calendar: fresh until the next expected publication")
    }

    private static func counts(_ counts: ResourceReport.Counts) -> String {
        switch counts {
        case .rates(let days, let latestDate):
            let newest = latestDate.map { ", newest \(HTML.escape($0))" } ?? ""
            return PageFormat.count(days, "stored day") + newest
        case .documents(let listed, let mirrored, let bytes, let failed):
            return "\(PageFormat.count(listed)) listed, \(PageFormat.count(mirrored)) mirrored (\(PageFormat.size(bytes))), "
                + "\(PageFormat.count(failed)) failed"
        }
    }

    private static func row(_ term: String, _ definition: String) -> String {
        "<dt>\(term)</dt><dd>\(definition)</dd>\n"
    }
}
