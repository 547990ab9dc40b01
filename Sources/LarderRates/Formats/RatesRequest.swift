public import Foundation
import LarderFormats

/// What a refresh asks one rates upstream for.
public enum RatesRequestPurpose: Sendable, Equatable {
    /// The routine refresh: everything on a first sync, else what is new since the newest stored
    /// day or the last success, as the format allows.
    case refresh(newestStored: RateDate?, lastSuccess: Date?)
    /// One day only, for a cross-check of that day's publication.
    case day(RateDate)
}

/// The URL a rates request goes to, by format: the ECB data API and Frankfurter are asked for a
/// range; the other formats are fetched as configured.
public enum RatesRequest {
    /// The ECB's first day of euro reference rates, where a first sync's history starts.
    static let firstDay = RateBounds.earliest(for: .ecbSDMX)

    /// `base` with what `purpose` asks of an upstream of `format`:
    /// - `ecb-sdmx`: the base's query kept, `format=csvdata` added unless it names a format; a first
    ///   sync adds `startPeriod=1999-01-04` (unless the base has a startPeriod), a later one
    ///   `updatedAfter=<last success>` (or `startPeriod=<newest stored day>` without one); a day
    ///   `startPeriod=d&endPeriod=d`.
    /// - `frankfurter`: the API's base with one trailing `/`, then `1999-01-04..`, `<newest stored day>..`
    ///   or the day itself.
    /// - the other formats: `base` unchanged.
    public static func url(base: String, format: RatesFormat, for purpose: RatesRequestPurpose) -> String {
        switch format {
        case .ecbSDMX: ecbSDMX(base: base, for: purpose)
        case .frankfurter: frankfurter(base: base, for: purpose)
        case .auto, .ecb, .pipe, .json: base
        }
    }

    /// True when the request asks only for what changed since the last copy, so that a 304 or an
    /// answer with no day means "unchanged": `ecb-sdmx` with `updatedAfter`, and `frankfurter`'s
    /// open range from the newest stored day.
    public static func isIncremental(format: RatesFormat, for purpose: RatesRequestPurpose) -> Bool {
        guard case .refresh(_?, let lastSuccess) = purpose else { return false }
        switch format {
        case .ecbSDMX: return lastSuccess != nil
        case .frankfurter: return true
        case .auto, .ecb, .pipe, .json: return false
        }
    }

    /// True when the answer may rightly hold past days only, each a revision to merge: `ecb-sdmx`
    /// with `updatedAfter`. Frankfurter's open range always holds the newest stored day when the
    /// upstream has it, so an answer of older days only is an upstream that is behind.
    public static func revisesPastDays(format: RatesFormat, for purpose: RatesRequestPurpose) -> Bool {
        format == .ecbSDMX && isIncremental(format: format, for: purpose)
    }

    private static func ecbSDMX(base: String, for purpose: RatesRequestPurpose) -> String {
        let (path, query) = split(base)
        var parameters = query.map { $0.split(separator: "&", omittingEmptySubsequences: true).map(String.init) } ?? []
        let names = Set(parameters.map { $0.prefix { $0 != "=" } })
        if !names.contains("format") { parameters.append("format=csvdata") }
        /// Drops the base's own range, which this request replaces.
        func replacingRange(_ added: [String]) {
            parameters.removeAll { ["startPeriod", "endPeriod", "updatedAfter"].contains(String($0.prefix { $0 != "=" })) }
            parameters += added
        }
        switch purpose {
        case .refresh(nil, _):
            if !names.contains("startPeriod") { parameters.append("startPeriod=\(firstDay)") }
        case .refresh(_?, let lastSuccess?):
            replacingRange(["updatedAfter=\(encodedInstant(lastSuccess))"])
        case .refresh(let newest?, nil):
            replacingRange(["startPeriod=\(newest)"])
        case .day(let day):
            replacingRange(["startPeriod=\(day)", "endPeriod=\(day)"])
        }
        return path + "?" + parameters.joined(separator: "&")
    }

    private static func frankfurter(base: String, for purpose: RatesRequestPurpose) -> String {
        let (path, query) = split(base)
        let segment = switch purpose {
        case .refresh(nil, _): "\(firstDay).."
        case .refresh(let newest?, _): "\(newest).."
        case .day(let day): day.description
        }
        return (path.hasSuffix("/") ? path : path + "/") + segment + (query.map { "?" + $0 } ?? "")
    }

    /// The URL before its `?`, and the query after it (nil when there is none).
    private static func split(_ url: String) -> (path: String, query: String?) {
        guard let mark = url.firstIndex(of: "?") else { return (url, nil) }
        return (String(url[..<mark]), String(url[url.index(after: mark)...]))
    }

    /// `2026-11-27T17:25:00+00:00` in whole seconds, UTC, with `:` and `+` percent-encoded as the
    /// SDMX web services require.
    static func encodedInstant(_ instant: Date) -> String {
        let utc = RFC3339.string(instant, milliseconds: false)
        return String(utc.dropLast()).replacingOccurrences(of: ":", with: "%3A") + "%2B00%3A00"
    }
}
