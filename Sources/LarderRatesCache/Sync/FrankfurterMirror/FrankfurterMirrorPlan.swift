import Foundation
import LarderFormats
import LarderRates

/// Which single-provider `/v2/rates` queries mirror a Frankfurter v2 whole (docs/rates.md, "A
/// Frankfurter v2 mirror"). A query naming one provider echoes its stored digits for the pairs stored
/// in the asked orientation, so a provider storing (PIVOT, quote) rows is asked with `base=PIVOT`, one
/// storing (foreign, PIVOT) rows with `base=FOREIGN&quotes=PIVOT` per currency (a pegged FOREIGN, which
/// Frankfurter answers [] as a base with providers=, with `base=PIVOT&quotes=FOREIGN`: derived, not the digits). A daily range over 5
/// years is refused unless it names ≤ 5 providers and ≤ 5 quotes, so a first sync asks windows of at
/// most 5 years; later refreshes ask each provider once from its newest stored day less the lookback.
struct FrankfurterMirrorPlan: Sendable {
    /// One provider as `/v2/providers` lists it.
    struct Provider: Sendable, Equatable {
        var key: String
        var pivot: String
        /// Rows stored (foreign, PIVOT): `orientation` `quote` (the sample set's field; Frankfurter publishes none).
        var quotesPivot: Bool
        var start: RateDate
        var end: RateDate
        var currencies: [String]
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

    /// `/v2/providers` read; nil when the body is not its shape.
    static func providers(_ body: [UInt8]) -> [Provider]? {
        guard case .array(let entries)? = try? JSONReader.read(body) else { return nil }
        var providers: [Provider] = []
        for case .object(let fields) in entries {
            guard case .string(let key)? = fields["key"], case .string(let pivot)? = fields["pivot_currency"],
                  case .string(let start)? = fields["start_date"], let first = RateDate(start),
                  case .string(let end)? = fields["end_date"], let last = RateDate(end),
                  case .array(let codes)? = fields["currencies"] else { return nil }
            let currencies = codes.compactMap { code -> String? in if case .string(let text) = code { text } else { nil } }
            let quotesPivot = fields["orientation"] == .string("quote")
            providers.append(Provider(key: key, pivot: pivot, quotesPivot: quotesPivot, start: first, end: last, currencies: currencies))
        }
        return providers
    }

    let providers: [Provider]
    /// Each provider's finished first-sync windows.
    let finished: [String: Set<String>]
    /// Each provider's newest stored day.
    let newest: [String: RateDate]
    /// Today (UTC) + 1: the end of an incremental range (SPEC §4.11's bound).
    let until: RateDate

    /// True once every window of the provider's first sync is stored.
    func isComplete(_ provider: Provider) -> Bool { finished[provider.key]?.contains(Self.complete) == true }

    /// The queries of a first sync not yet finished, or the incremental ones of a complete provider.
    func queries(for provider: Provider) -> [Query] {
        if isComplete(provider) {
            let from = (newest[provider.key] ?? provider.start).adding(days: -Self.lookbackDays) ?? provider.start
            return Self.targets(provider, from: from, to: until).map { Query(provider: provider.key, window: nil, target: $0.target) }
        }
        var queries: [Query] = []
        var start = provider.start
        while start <= provider.end {
            let end = min(start.adding(days: Self.windowDays - 1) ?? provider.end, provider.end)
            for (key, target) in Self.targets(provider, from: start, to: end) where finished[provider.key]?.contains(key) != true {
                queries.append(Query(provider: provider.key, window: key, target: target))
            }
            guard let next = end.adding(days: 1) else { break }
            start = next
        }
        return queries
    }

    /// The window keys and targets of one range: one query, or one per currency for a (foreign, PIVOT) provider.
    private static func targets(_ provider: Provider, from: RateDate, to: RateDate) -> [(key: String, target: String)] {
        let range = "from=\(from)&to=\(to)"
        guard provider.quotesPivot else {
            return [("\(from)..\(to)", "v2/rates?providers=\(provider.key)&base=\(provider.pivot)&\(range)")]
        }
        return provider.currencies.filter { $0 != provider.pivot }.map { code in
            // A pegged base with providers= answers []: the pair is asked the other way round, and its rows
            // are the derived, rounded (PIVOT, code) ones, the only digits the API gives for them.
            CurrencyPeg.of(code) == nil
                ? ("\(code):\(from)..\(to)", "v2/rates?providers=\(provider.key)&base=\(code)&quotes=\(provider.pivot)&\(range)")
                : ("\(code):\(from)..\(to)", "v2/rates?providers=\(provider.key)&base=\(provider.pivot)&quotes=\(code)&\(range)")
        }
    }
}
