import LarderDocumentsCache

/// The documents part of the page: each listed document with its size, `updated_at` and whether it
/// is mirrored or why its latest download failed, each a link to its bytes on this Larder.
enum DocumentsSection {
    /// A mirror of 100,000 documents would make a page of megabytes: past this many rows the table
    /// shows every failed document and the first others in index order, and points at `/documents`.
    static let rowLimit = 500

    static func render(_ documents: (table: DocumentStatusTable?, hasIndex: Bool)?) -> String {
        var html = """
            <section aria-labelledby="documents-heading" id="documents">
            <h2 id="documents-heading">Documents</h2>
            <div data-region="documents">

            """
        guard let (table, hasIndex) = documents else {
            return html + "<p>The documents are not configured.</p>\n</div>\n</section>\n"
        }
        guard hasIndex else {
            return html + "<p>No documents index is accepted yet: the first sync is running or failed (see above).</p>\n"
                + "</div>\n</section>\n"
        }
        guard let table else {
            return html + "<p>The mirror's records cannot be read from the store (see the log).</p>\n</div>\n</section>\n"
        }
        let shown = table.rows
        var caption = "\(PageFormat.count(table.listed, "document")) listed, \(PageFormat.count(table.mirrored)) mirrored, "
            + "\(PageFormat.count(table.failed)) failed"
        if shown.count < table.listed {
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
