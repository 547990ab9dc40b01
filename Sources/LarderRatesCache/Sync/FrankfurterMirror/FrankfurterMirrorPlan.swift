import Foundation
import LarderFormats
import LarderRates

/// Which single-provider `/v2/rates` queries mirror a Frankfurter v2 whole (docs/rates.md, "A
/// Frankfurter v2 mirror"). A query naming one provider echoes its stored digits for the pairs stored
/// in the asked orientation, so the currencies a provider stores as (PIVOT, quote) are asked in one
/// query with `base=PIVOT`, each it stores as (foreign, PIVOT) with `base=FOREIGN&quotes=PIVOT` (which
/// way is found by `FrankfurterOrientationProbe`; a pegged FOREIGN, which Frankfurter answers [] as a
/// base with providers=, is taken as (PIVOT, FOREIGN): derived, not the digits). A daily range over 5
/// years is refused unless it names ≤ 5 providers and ≤ 5 quotes, so a first sync asks windows of at
/// most 5 years; later refreshes ask a provider whose data can have changed from its newest stored day
/// less the lookback.
struct FrankfurterMirrorPlan: Sendable {
    /// One provider as `/v2/providers` lists it.
    struct Provider: Sendable, Equatable {
        var key: String
        var pivot: String
        var start: RateDate
        var end: RateDate
        var currencies: [String]

        /// The currencies the provider quotes against its pivot.
        var foreign: [String] { currencies.filter { $0 != pivot } }
    }

    /// `/v2/providers` read: the providers the mirror can follow, the entries it skips with why, and
    /// those listed as ending after today + 1, followed up to it.
    struct Catalogue: Sendable {
        var providers: [Provider] = []
        var skipped: [(key: String, reason: String)] = []
        var bounded: [(key: String, reason: String)] = []
    }

    /// One query: the provider's window key (nil for an incremental one) and its path and query after the root.
    struct Query: Sendable, Equatable {
        var provider: String
        var window: String?
        var target: String
    }

    /// What marks a provider's first sync finished in the store.
    static let complete = "complete"
    /// Days a first-sync window spans: within 5 years of its start however the leap days fall.
    static let windowDays = 1825
    /// How far back a refresh asks from a provider's newest stored day: Frankfurter's carry-forward
    /// window, within which late rows still change its answers.
    static let lookbackDays = 14

    /// True for a `frankfurter` URL naming the API's root: a path ending in `/` that is not a v1 base.
    static func isRoot(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard let scheme = path.range(of: "://") else { return false }
        let afterHost = path[scheme.upperBound...].drop { $0 != "/" }
        return afterHost.isEmpty || (afterHost.hasSuffix("/") && !afterHost.hasSuffix("/v1/"))
    }

    /// `/v2/providers` read; nil when the body is not a list. An entry missing a field is skipped on its
    /// own: one bad provider does not hold back the others. One listed as ending after `until` (a row
    /// dated years ahead upstream, or this machine's clock behind) is followed up to `until`: its rows
    /// up to today are real, and a query never asks past the bounds of SPEC §4.11.
    static func providers(_ body: [UInt8], until: RateDate) -> Catalogue? {
        guard case .array(let entries)? = try? JSONReader.read(body) else { return nil }
        var catalogue = Catalogue()
        for (index, entry) in entries.enumerated() {
            guard case .object(let fields) = entry else {
                catalogue.skipped.append(("#\(index + 1)", "not an object"))
                continue
            }
            let key = if case .string(let text)? = fields["key"] { text } else { "#\(index + 1)" }
            guard case .string(let pivot)? = fields["pivot_currency"],
                  case .string(let start)? = fields["start_date"], let first = RateDate(start),
                  case .string(let end)? = fields["end_date"], let last = RateDate(end),
                  case .array(let codes)? = fields["currencies"] else {
                catalogue.skipped.append((key, "not {key, pivot_currency, start_date, end_date, currencies}"))
                continue
            }
            guard first <= until else {
                catalogue.skipped.append((key, "starts on \(first), after \(until): nothing to ask yet"))
                continue
            }
            if last > until {
                catalogue.bounded.append((key, "lists its last day as \(last), after \(until): asked up to \(until)"))
            }
            let currencies = codes.compactMap { code -> String? in if case .string(let text) = code { text } else { nil } }
            catalogue.providers.append(
                Provider(key: key, pivot: pivot, start: first, end: min(last, until), currencies: currencies))
        }
        return catalogue
    }

    let providers: [Provider]
    /// Each provider's finished first-sync windows.
    let finished: [String: Set<String>]
    /// Each provider's newest stored day.
    let newest: [String: RateDate]
    /// Which way each provider stores each currency's rows (`FrankfurterOrientationProbe`).
    var orientations: [String: [String: FrankfurterOrientationProbe.Stored]] = [:]
    /// Today (UTC) + 1: the end of an incremental range (SPEC §4.11's bound).
    let until: RateDate

    /// True once every window of the provider's first sync is stored.
    func isComplete(_ provider: Provider) -> Bool { finished[provider.key]?.contains(Self.complete) == true }

    /// True when a complete provider's data can have changed: the listing shows a day after its newest
    /// stored one, or its last day is within Frankfurter's lookback of today, where a late row still
    /// changes answers. A provider gone quiet (or defunct) and fully stored costs no request.
    func isDue(_ provider: Provider) -> Bool {
        guard let newest = newest[provider.key], provider.end <= newest else { return true }
        let today = until.adding(days: -1) ?? until
        return (provider.end.adding(days: Self.lookbackDays) ?? provider.end) >= today
    }

    /// The queries of a first sync not yet finished, or the incremental ones of a complete provider when
    /// due. Either is cut into windows of at most 5 years: a provider stored while this machine's clock
    /// was years behind is asked the years since in ranges Frankfurter answers.
    func queries(for provider: Provider) -> [Query] {
        if isComplete(provider) {
            guard isDue(provider) else { return [] }
            let from = max(provider.start, (newest[provider.key] ?? provider.start).adding(days: -Self.lookbackDays) ?? provider.start)
            return windows(from: from, to: until).flatMap { targets(provider, from: $0.from, to: $0.to) }
                .map { Query(provider: provider.key, window: nil, target: $0.target) }
        }
        return windows(from: provider.start, to: provider.end).flatMap { targets(provider, from: $0.from, to: $0.to) }
            .filter { finished[provider.key]?.contains($0.key) != true }
            .map { Query(provider: provider.key, window: $0.key, target: $0.target) }
    }

    /// `from` to `to` in consecutive ranges of at most `windowDays` days.
    private func windows(from: RateDate, to: RateDate) -> [(from: RateDate, to: RateDate)] {
        var windows: [(from: RateDate, to: RateDate)] = []
        var start = from
        while start <= to {
            let end = min(start.adding(days: Self.windowDays - 1) ?? to, to)
            windows.append((start, end))
            guard let next = end.adding(days: 1) else { break }
            start = next
        }
        return windows
    }

    /// The window keys and targets of one range: one query for the currencies stored (PIVOT, quote)
    /// (naming them when others are stored the other way, whose derived rows it must not bring), and
    /// one per currency stored (foreign, PIVOT).
    private func targets(_ provider: Provider, from: RateDate, to: RateDate) -> [(key: String, target: String)] {
        let range = "from=\(from)&to=\(to)"
        let stored = orientations[provider.key] ?? [:]
        let quoting = provider.foreign.filter { stored[$0] == .pivotQuote }
        let based = provider.foreign.filter { stored[$0] != .pivotQuote }
        var targets: [(key: String, target: String)] = []
        if !based.isEmpty {
            let quotes = quoting.isEmpty ? "" : "&quotes=\(based.joined(separator: ","))"
            targets.append(("\(from)..\(to)", "v2/rates?providers=\(provider.key)&base=\(provider.pivot)\(quotes)&\(range)"))
        }
        for code in quoting {
            targets.append(("\(code):\(from)..\(to)", "v2/rates?providers=\(provider.key)&base=\(code)&quotes=\(provider.pivot)&\(range)"))
        }
        return targets
    }
}
