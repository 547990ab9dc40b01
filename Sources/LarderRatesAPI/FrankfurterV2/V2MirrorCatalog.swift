import LarderFormats
import LarderRates

/// Frankfurter v2's metadata answers for a mirror of several providers (`V2Catalog` is a one-provider
/// feed's): each provider as its upstream describes it, with the days and currencies its rows cover.
struct V2MirrorCatalog: V2Metadata {
    let coverage: ProviderCoverage
    let providers: [V2ProviderInfo]

    /// `/v2/currencies`: active ones by default, all with `scope=all` (both with the pegged ones), or
    /// the named providers' currencies (no pegged one, in the currency table's order).
    func currencies(scope: String?, providers names: String?, today: RateDate) -> [UInt8] {
        guard let names else { return V2Catalog.list(V2Catalog.listed(coverage.spans, scope: scope, today: today)) }
        return V2Catalog.list(coverage.currencies(of: Set(V2Catalog.providerKeys(names))).map {
            V2Catalog.Entry(code: $0, span: coverage.spans[$0]!, peg: nil)
        })
    }

    /// `/v2/currency/{code}`, with the providers quoting it; nil when neither stored nor pegged to a stored one.
    func currency(_ code: String) -> [UInt8]? {
        V2Catalog(coverage: CurrencyCoverage(spans: coverage.spans), provider: nil, base: nil)
            .currency(code, providers: coverage.spans[code] == nil ? [] : coverage.providers(of: code))
    }

    /// `/v2/providers`: every provider with rows, by key, its days and currencies from them; its missed
    /// publications as the upstream last counted them.
    func providers(today: RateDate) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 * providers.count + 2)
        writer.raw("[")
        var first = true
        for info in providers.sorted(by: { $0.provider.key < $1.provider.key }) {
            guard let spans = coverage.byProvider[info.provider.key], !spans.isEmpty else { continue }
            if !first { writer.raw(",") }
            first = false
            let provider = info.provider
            writer.raw("{")
            V2Catalog.member("key", provider.key, &writer, first: true)
            V2Catalog.member("name", provider.name, &writer)
            V2Catalog.member("country_code", provider.countryCode, &writer)
            V2Catalog.member("rate_type", provider.rateType, &writer)
            V2Catalog.member("pivot_currency", provider.pivotCurrency, &writer)
            V2Catalog.member("data_url", provider.dataURL, &writer)
            V2Catalog.member("terms_url", provider.termsURL, &writer)
            V2Catalog.member("start_date", spans.values.map(\.first).min()?.description, &writer)
            V2Catalog.member("end_date", spans.values.map(\.last).max()?.description, &writer)
            V2Catalog.member("publish_cadence", provider.publishCadence, &writer)
            writer.raw(",")
            writer.key("publishes_missed")
            if let missed = info.publishesMissed { writer.int(missed) } else { writer.raw("null") }
            writer.raw(",")
            writer.key("currencies")
            writer.raw("[")
            for (index, code) in spans.keys.sorted().enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(code)
            }
            writer.raw("]}")
        }
        writer.raw("]")
        return writer.bytes
    }
}
