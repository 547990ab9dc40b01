import LarderDocumentsCache

/// The documents part of the page: each listed document with its size, `updated_at` and whether it
/// is mirrored or why its latest download failed, each a link to its bytes on this Larder.
enum DocumentsSection {
    /// A mirror of 100,000 documents would make a page of megabytes: past this many rows the table
    /// shows every failed document and the first others in index order, and points at `/documents`.
    static let rowLimit = 500

    static func render(_ documents: (statuses: [DocumentStatus], hasIndex: Bool)?) -> String {
        var html = """
            <section aria-labelledby="documents-heading" id="documents">
            <h2 id="documents-heading">Documents</h2>
            <div data-region="documents">

            """
        guard let (statuses, hasIndex) = documents else {
            return html + "<p>The documents are not configured.</p>\n</div>\n</section>\n"
        }
        guard hasIndex else {
            return html + "<p>No documents index is accepted yet: the first sync is running or failed (see above).</p>\n"
                + "</div>\n</section>\n"
        }
        let shown = shownRows(statuses)
        let mirrored = statuses.filter { $0.state == .mirrored }.count
        let failed = statuses.filter { if case .failed = $0.state { true } else { false } }.count
        var caption = "\(PageFormat.count(statuses.count, "document")) listed, \(PageFormat.count(mirrored)) mirrored, "
            + "\(PageFormat.count(failed)) failed"
        if shown.count < statuses.count {
            caption += "; showing \(PageFormat.count(shown.count)) (every failed one first, then in index order): "
                + "the full list is <a href=\"/documents\">/documents</a>"
        }
        html += """
            <table class="documents" id="documents-table">
            <caption>\(caption)</caption>
            <thead><tr><th scope="col">Name</th><th scope="col" class="num">Size</th><th scope="col">Updated</th>\
            <th scope="col">State</th></tr></thead>
            <tbody>

            """
        for document in shown {
            let name = HTML.escape(document.name)
            let size = document.size.map { "<data value=\"\($0)\">\(PageFormat.size($0))</data>" } ?? "unknown"
            html += "<tr><th scope=\"row\"><a href=\"/documents/\(name)\">\(name)</a></th>"
                + "<td class=\"num\">\(size)</td><td>\(PageFormat.time(document.updatedAt, absent: "not given"))</td>"
                + "<td>\(state(document.state))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n</section>\n"
    }

    private static func shownRows(_ statuses: [DocumentStatus]) -> [DocumentStatus] {
        guard statuses.count > rowLimit else { return statuses }
        let failed = statuses.filter { if case .failed = $0.state { true } else { false } }.prefix(rowLimit)
        let others = statuses.filter { if case .failed = $0.state { false } else { true } }
        return Array(failed) + others.prefix(rowLimit - failed.count)
    }

    private static func state(_ state: DocumentStatus.State) -> String {
        switch state {
        case .mirrored:
            return "<span class=\"badge fresh\">Mirrored</span>"
        case .pending:
            return "<span class=\"badge busy\">Listed</span> not downloaded yet (fetched on first request)"
        case .failed(let message, let servingOldCopy):
            let old = servingOldCopy ? "; the previous copy is still served" : ""
            return "<span class=\"badge stale\">Failed</span> <span class=\"error\">\(HTML.escape(message))</span>\(old)"
        }
    }
}
