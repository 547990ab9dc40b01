import LarderRates
import LarderRatesCache

/// The rates part of the page: the base and chart-currency selector (a GET form to `/`, which the
/// script submits on change), the newest day as a table with the change against the stored day
/// before, and one currency's history as an SVG chart.
enum RatesSection {
    static func render(_ rates: (view: RatesView, selection: PageSelection?)?, configured: Bool) -> String {
        var html = """
            <section aria-labelledby="rates-heading" id="rates">
            <h2 id="rates-heading">Rates</h2>

            """
        guard let (view, selection) = rates, let selection else {
            let why = configured ? "No rates are cached yet: the first fetch is running or failed (see above)."
                : "The rates are not configured."
            return html + "<div data-region=\"rates\"><p>\(why)</p></div>\n</section>\n"
        }
        let names = CurrencyNames(view)
        html += "<div data-region=\"rates\">\n"
        html += form(view, selection, names)
        html += "<div class=\"rates-layout\">\n"
        html += table(view, base: selection.base, names)
        if let currency = selection.currency {
            html += RateChart.render(view.series(of: currency, base: selection.base), currency: currency, base: selection.base)
        }
        html += "</div>\n"
        html += "<p class=\"hint\">Names are the feed's where it gives them, else the Unicode CLDR's English names.</p>\n"
        return html + "</div>\n</section>\n"
    }

    private static func form(_ view: RatesView, _ selection: PageSelection, _ names: CurrencyNames) -> String {
        var html = """
            <form class="selection" method="get" action="/">
            <label for="base">Base currency</label>
            <select id="base" name="base">

            """
        html += options(view.codes, selected: selection.base, names)
        html += "</select>\n"
        if let currency = selection.currency {
            html += "<label for=\"currency\">Chart currency</label>\n<select id=\"currency\" name=\"currency\">\n"
            html += options(view.codes.filter { $0 != selection.base }, selected: currency, names)
            html += "</select>\n"
        }
        return html + "<button type=\"submit\">Show</button>\n</form>\n"
    }

    private static func options(_ codes: [String], selected: String, _ names: CurrencyNames) -> String {
        var html = ""
        for code in codes {
            let label = names[code].map { "\(code) (\(HTML.escape($0)))" } ?? code
            html += "<option value=\"\(code)\"\(code == selected ? " selected" : "")>\(label)</option>\n"
        }
        return html
    }

    private static func table(_ view: RatesView, base: String, _ names: CurrencyNames) -> String {
        let rows = view.table(base: base) ?? []
        let compared = view.previousDate.map { "change since \($0), the stored day before" }
            ?? "no earlier day is stored to compare with"
        var html = """
            <table class="rates" id="rates-table">
            <caption>Rates of \(view.date): units of each currency for 1 \(base); \(compared)</caption>
            <thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col" class="num">Rate</th>\
            <th scope="col" class="num">Change</th></tr></thead>
            <tbody>

            """
        for row in rows {
            let change: (text: String, direction: String) =
                row.previous.map { PageFormat.change(from: $0, to: row.value) } ?? ("–", "none")
            html += "<tr><th scope=\"row\">\(row.code)</th><td>\(HTML.escape(names[row.code] ?? ""))</td>"
                + "<td class=\"num\">\(row.text)</td><td class=\"num \(change.direction)\">\(change.text)</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }
}

/// Currency names: the ones `/currencies` answers (`ISOCurrency.displayName`), so the page and the API agree.
struct CurrencyNames {
    private let view: RatesView

    init(_ view: RatesView) {
        self.view = view
    }

    subscript(code: String) -> String? {
        ISOCurrency.displayName(of: code, feedName: view.name(of: code))
    }
}
