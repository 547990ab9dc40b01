import Foundation
import LarderApp
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFreshness
import LarderRatesCache
import LarderTesting
import Testing

/// The sample upstream's five-day ECB file (2026-11-16 to 2026-11-20) and documents index.
let historyPath = "/rates/eurofxref-hist-90d.xml"
let documentsIndexPath = "/documents/index.json"

/// `withRates` on `historyPath` with the documents configured too, and the start-up syncs finished
/// before `body` runs.
func withStatusPage<T: Sendable>(
    ratesPath path: String = historyPath,
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withRates(path: path) { configuration, upstream in
        configuration.documents = UpstreamResource(url: upstream.url(documentsIndexPath), format: .auto)
        try await configure(&configuration, upstream)
    } _: { larder, upstream in
        // Done means the scheduler has also set each next refresh, which it does after the refresh returns.
        let synced = try await eventually {
            guard let rates = larder.application?.rates, let documents = larder.application?.documents else { return false }
            return rates.refresher.status.nextRefresh != nil && !rates.refresher.isRefreshing
                && documents.refresher.status.nextRefresh != nil && !documents.refresher.isRefreshing
        }
        try #require(synced, "the start-up syncs finished")
        return try await body(larder, upstream)
    }
}

/// What the tests read from a page: the text between the first `open` and the next `close`.
func between(_ text: String, _ open: String, _ close: String) -> String? {
    guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex)
    else { return nil }
    return String(text[start.upperBound..<end.lowerBound])
}

/// How often `needle` occurs in `text`.
func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

/// The rates table's rows (code, rate and change as shown), in page order.
func tableRates(_ page: String) -> [(code: String, rate: String, change: String)] {
    guard let table = between(page, "<table class=\"rates\"", "</table>") else { return [] }
    let pattern = #/<tr><th scope="row">([A-Z]{3})</th><td>[^<]*</td><td class="num">([0-9.]+)</td><td class="num \w+">([^<]*)</td>/#
    return table.matches(of: pattern).map { (String($0.output.1), String($0.output.2), String($0.output.3)) }
}

/// The `rates` object of a `/rates` answer as code → number text, read from the bytes (keeping the digits).
func jsonRates(_ body: String) -> [String: String] {
    guard let object = between(body, "\"rates\":{", "}") else { return [:] }
    var rates: [String: String] = [:]
    for member in object.split(separator: ",") {
        let parts = member.split(separator: ":")
        if parts.count == 2 { rates[parts[0].trimmingCharacters(in: ["\""])] = String(parts[1]) }
    }
    return rates
}
