import LarderDocumentsCache
import LarderRatesCache

/// What one rendering of the page shows.
struct PageContent {
    let report: StatusReport
    /// nil when the rates are not configured or nothing is cached yet.
    let rates: (view: RatesView, selection: PageSelection?)?
    /// nil when the documents are not configured; `hasIndex` false until an index was accepted.
    let documents: (table: DocumentStatusTable?, hasIndex: Bool)?
    let adminTokenRequired: Bool
}

/// The status page: one self-contained HTML document (its only script and stylesheet inline,
/// allowed by hash in `PagePolicy`), readable with JavaScript and styles off.
///
/// The parts the script replaces when the data changes carry `data-region`; the script fetches
/// this same page again and swaps them, so there is one renderer, here, and every string from an
/// upstream is escaped in one place.
enum StatusPageDocument {
    static func render(_ content: PageContent) -> [UInt8] {
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>Larder status</title>
            <link rel="icon" href="data:,">
            <style>\(PageStyle.text)</style>
            </head>
            <body data-token="\(content.adminTokenRequired ? "required" : "none")">
            <a class="skip" href="#main">Skip to the content</a>
            <header>
            <h1>Larder</h1>
            <p class="hint">Version \(HTML.escape(content.report.version)), started \(PageFormat.time(content.report.startedAt)).
            <span id="live" role="status" aria-live="polite"></span></p>
            </header>
            <main id="main">

            """
        html += ResourceCards.render(content.report, adminTokenRequired: content.adminTokenRequired)
        html += RatesSection.render(content.rates, configured: content.report.rates != nil)
        html += DocumentsSection.render(content.documents)
        html += """
            </main>
            <footer>
            <p class="hint">The same data as JSON: <a href="/status">/status</a>, <a href="/rates">/rates</a>, \
            <a href="/currencies">/currencies</a>, <a href="/documents">/documents</a>; metrics: <a href="/metrics">/metrics</a>. \
            Times are UTC; with JavaScript on, ages follow each time and this page updates itself every few seconds.</p>
            </footer>
            <script>\(PageScript.text)</script>
            </body>
            </html>

            """
        return Array(html.utf8)
    }
}
