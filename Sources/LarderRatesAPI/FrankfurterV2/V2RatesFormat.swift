import Foundation
import LarderHTTP
import LarderRates

/// The three forms of a `/v2/rates` answer: a JSON array, CSV with a header row, NDJSON lines.
enum V2RatesFormat: String, Sendable {
    case json
    case csv
    case ndjson

    /// `/v2/rates.csv` is CSV; `/v2/rates` is CSV when `Accept` prefers `text/csv` (Frankfurter's type
    /// routing), NDJSON when it names `application/x-ndjson`, JSON otherwise.
    static func of(_ request: Request, csvPath: Bool) -> V2RatesFormat {
        if csvPath { return .csv }
        guard let accept = request.headers["Accept"] else { return .json }
        if prefersCSV(accept) { return .csv }
        return accept.contains("application/x-ndjson") ? .ndjson : .json
    }

    /// The first `Accept` entry naming a media type Frankfurter's type routing knows (Roda's: JSON, XML,
    /// HTML, CSV; exact names, quality ignored) is `text/csv`.
    static func prefersCSV(_ accept: String) -> Bool {
        let routed = ["text/json", "application/json", "text/xml", "application/xml", "text/html", "text/csv"]
        for range in accept.split(separator: ",") {
            let type = range.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if routed.contains(type) { return type == "text/csv" }
        }
        return false
    }

    var contentType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .csv: "text/csv"
        case .ndjson: "application/x-ndjson"
        }
    }

    /// What opens the body; `expanded` adds the CSV's providers column.
    func head(range: Bool, expanded: Bool, empty: Bool) -> String {
        switch self {
        case .json: "["
        // One day's empty CSV is empty (Frankfurter's `to_csv`); a range's always has its header.
        case .csv: !range && empty ? "" : V2Record.csvHeader(expanded: expanded)
        case .ndjson: ""
        }
    }

    var tail: String { self == .json ? "]" : "" }

    /// One record, after `index` records.
    func append(_ record: V2Record, index: Int, expanded: Bool, into out: inout [UInt8]) {
        switch self {
        case .json:
            if index > 0 { out.append(UInt8(ascii: ",")) }
            record.json(into: &out)
        case .ndjson:
            record.json(into: &out)
            out.append(UInt8(ascii: "\n"))
        case .csv:
            record.csv(expanded: expanded, into: &out)
        }
    }
}
