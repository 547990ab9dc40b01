import LarderRatesCache

/// The rates card's cross-check line: which day, how the other upstreams answered, and per
/// disagreeing currency every upstream's value and the one served (SPEC §4.12).
enum CrossCheckSummary {
    static func render(_ check: CrossCheckReport) -> String {
        var checked = " (checked " + PageFormat.time(check.checkedAt) + ")"
        let behind = check.behindUpstreams.map { "\(code($0.label)) (newest \(HTML.escape($0.newestDay ?? "unknown")))" }
        if !behind.isEmpty { checked += "; <span class=\"error\">behind: " + behind.joined(separator: ", ") + "</span>" }
        switch check.outcome {
        case .agreed, .served:
            return "\(HTML.escape(check.date)): \(PageFormat.count(check.upstreams.count, "upstream")) agree" + checked
        case .unavailable, .behind:
            // The ones behind are named above.
            let reasons = check.upstreams.filter { $0.outcome != .behind }.compactMap { asked in
                asked.error.map { "\(code(asked.label)): \(HTML.escape($0))" }
            }
            return "\(HTML.escape(check.date)): no other upstream answered" + checked
                + " <span class=\"error\">" + reasons.joined(separator: "; ") + "</span>"
        case .disagreed:
            var html = "<span class=\"error\">\(HTML.escape(check.date)): the upstreams disagree on "
                + (check.disagreements.count == 1 ? "1 currency" : PageFormat.count(check.disagreements.count) + " currencies") + "</span>" + checked
            if check.rewritten { html += "; the majority's values are served" }
            html += "\n<ul class=\"cross-check\">\n"
            for disagreement in check.disagreements {
                let values = disagreement.values.map { "\(code($0.label)) \(HTML.escape($0.value))" }
                html += "<li><strong>\(HTML.escape(disagreement.currency))</strong>: " + values.joined(separator: ", ")
                    + "; served \(HTML.escape(disagreement.kept))"
                if !disagreement.odd.isEmpty {
                    html += " (outvoted: " + disagreement.odd.map(code).joined(separator: ", ") + ")"
                }
                html += "</li>\n"
            }
            let unavailable = check.upstreams.filter { $0.outcome == .unavailable }
            if !unavailable.isEmpty {
                html += "<li>unavailable: " + unavailable.map { code($0.label) }.joined(separator: ", ") + "</li>\n"
            }
            return html + "</ul>"
        }
    }

    private static func code(_ label: String) -> String {
        "<code>\(HTML.escape(label))</code>"
    }
}
