import Foundation

/// The status page as HTML a browser reads as meant: every element one the page itself writes,
/// each non-void one closed in order, and the script's and stylesheet's text left alone; so no
/// text from a feed or an index (names, codes, messages) can open an element of its own.
enum StatusPageCheck {
    /// The page's own elements (StatusPageDocument, the sections, the chart).
    static let elements: Set<String> = [
        "html", "head", "meta", "title", "link", "style", "script", "body", "header", "main", "footer", "section",
        "nav", "h1", "h2", "h3", "div", "p", "span", "table", "caption", "thead", "tbody", "tr", "th", "td", "form",
        "label", "select", "option", "button", "svg", "path", "polyline", "line", "text", "g", "circle", "rect", "a",
        "ul", "ol", "li", "dl", "dt", "dd", "code", "small", "strong", "em", "time", "abbr", "details", "summary",
        "noscript", "desc", "output", "b", "i", "pre", "input", "br", "hr", "article", "data", "figure", "figcaption",
    ]
    static let void: Set<String> = ["meta", "link", "br", "hr", "input", "img"]

    static func check(_ body: [UInt8], _ what: String) throws(PropertyViolation) {
        let html = String(decoding: body, as: UTF8.self)
        try expect(html.prefix(15).lowercased() == "<!doctype html>", "\(what): not an HTML document")
        var open: [String] = []
        var rest = html[...]
        while let start = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: start)...]
            if rest.hasPrefix("!") {
                guard let end = rest.firstIndex(of: ">") else { throw PropertyViolation(message: "\(what): unclosed <!") }
                rest = rest[rest.index(after: end)...]
                continue
            }
            let closing = rest.hasPrefix("/")
            if closing { rest = rest.dropFirst() }
            let name = String(rest.prefix { $0.isLetter || $0.isNumber }).lowercased()
            try expect(elements.contains(name), "\(what): element <\(closing ? "/" : "")\(name)> the page does not write, near \(String(rest.prefix(80)).debugDescription)")
            guard let end = rest.firstIndex(of: ">") else { throw PropertyViolation(message: "\(what): unclosed <\(name)") }
            let tag = rest[..<end]
            rest = rest[rest.index(after: end)...]
            if closing {
                try expect(open.last == name, "\(what): </\(name)> closes <\(open.last ?? "nothing")>")
                open.removeLast()
            } else if !void.contains(name), !tag.hasSuffix("/") {
                open.append(name)
                // Raw text: skipped to its end tag.
                if name == "script" || name == "style" {
                    guard let close = rest.range(of: "</\(name)>") else { throw PropertyViolation(message: "\(what): <\(name)> not closed") }
                    rest = rest[close.lowerBound...]
                }
            }
        }
        try expect(open.isEmpty, "\(what): elements left open: \(open)")
    }
}
