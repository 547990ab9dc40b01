import Foundation
import LarderHTTP
import LarderServing

/// `GET /` for a program: Frankfurter's root index, which names the API versions and their OpenAPI
/// documents, so a client that starts from the root finds `/v1` and `/v2` here as at Frankfurter.
enum RootIndex {
    static let answer = FixedAnswer(
        json: Array((#"{"name":"Larder","versions":{"v1":{"base":"/v1","openapi":"/v1/openapi.json","status":"frozen"},"#
            + #""v2":{"base":"/v2","openapi":"/v2/openapi.json","status":"current"}},"docs":"https://frankfurter.dev"}"#
            + "\n").utf8),
        headers: ["Vary": "Accept"])

    /// True when the request's `Accept` names `text/html` (or XHTML) with a weight above 0: a browser
    /// navigating, or the page's own script. Anything else (no field, `*/*`, JSON) gets the index.
    static func wantsHTML(_ request: Request) -> Bool {
        guard let accept = request.headers["Accept"] else { return false }
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, type == "text/html" || type == "application/xhtml+xml" else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if weight > 0 { return true }
        }
        return false
    }
}
