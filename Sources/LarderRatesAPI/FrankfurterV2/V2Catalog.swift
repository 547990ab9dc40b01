import LarderFormats
import LarderRates

/// What Frankfurter v2's metadata routes answer from: a one-provider feed's catalog or a mirror's.
protocol V2Metadata: Sendable {
    func currencies(scope: String?, providers: String?, today: RateDate) -> [UInt8]
    func currency(_ code: String) -> [UInt8]?
    func providers(today: RateDate) -> [UInt8]
}

/// Frankfurter v2's metadata answers over the stored history — `/v2/currencies`,
/// `/v2/currency/{code}`, `/v2/providers` — as its source renders them: a currency's days are the
/// first and last stored day quoting it; a pegged currency (`CurrencyPeg`) is listed with its
/// anchor's days; names, numeric codes and symbols come from the currency table.
struct V2Catalog: V2Metadata {
    /// A listed currency: its days, and its peg when it has one.
    struct Entry: Sendable, Equatable {
        let code: String
        var span: CurrencyCoverage.Span
        var peg: CurrencyPeg?
    }

    let coverage: CurrencyCoverage
    /// Who publishes every stored rate; nil while unknown.
    let provider: RatesProvider?
    /// The newest stored day's base, the pivot of a provider whose metadata names none.
    let base: String?

    /// Frankfurter lists a currency by default while its last day is at most this many days before today.
    static let activeDays = 30

    /// `/v2/currencies`: active ones by default, all with `scope=all` (both with the pegged ones),
    /// or with `providers` every stored one when the list names the provider (and no pegged one: a
    /// peg is no provider's data).
    func currencies(scope: String?, providers: String?, today: RateDate) -> [UInt8] {
        let entries: [Entry]
        if let providers {
            let keys = Self.providerKeys(providers)
            entries = provider.map { keys.contains($0.key) } == true
                ? coverage.codes.map { Entry(code: $0, span: coverage.spans[$0]!, peg: nil) } : []
        } else {
            entries = Self.listed(coverage.spans, scope: scope, today: today)
        }
        return Self.list(entries)
    }

    /// The currencies `/v2/currencies` lists without `providers=`: active ones (with the pegged ones),
    /// or all with `scope=all`.
    static func listed(_ spans: [String: CurrencyCoverage.Span], scope: String?, today: RateDate) -> [Entry] {
        if scope == "all" { return withPegs(spans) }
        let cutoff = today.adding(days: -activeDays) ?? .firstDay
        return withPegs(spans.filter { $0.value.last >= cutoff })
    }

    /// A JSON array of the entries' fields.
    static func list(_ entries: [Entry]) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 * entries.count + 2)
        writer.raw("[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{")
            writeFields(entry, into: &writer)
            writer.raw("}")
        }
        writer.raw("]")
        return writer.bytes
    }

    /// `/v2/currency/{code}`: nil when the code is neither stored nor pegged to a stored one.
    func currency(_ code: String) -> [UInt8]? {
        currency(code, providers: provider.map { coverage.spans[code] != nil ? [$0.key] : [] } ?? [])
    }

    /// `/v2/currency/{code}` listing `providers` as the ones quoting it.
    func currency(_ code: String, providers: [String]) -> [UInt8]? {
        let peg = CurrencyPeg.of(code)
        var entry: Entry
        if let span = coverage.spans[code] {
            entry = Entry(code: code, span: span, peg: nil)
        } else if let peg, let anchor = coverage.spans[peg.base] {
            entry = Entry(code: code, span: anchor, peg: nil)
        } else {
            return nil
        }
        if let peg { Self.apply(peg, to: &entry, anchor: coverage.spans[peg.base]) }
        var writer = JSONWriter(capacity: 512)
        writer.raw("{")
        Self.writeFields(entry, into: &writer)
        writer.raw(",")
        writer.key("providers")
        writer.raw("[")
        for (index, key) in providers.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(key)
        }
        writer.raw("]")
        if let peg {
            writer.raw(",")
            writer.key("peg")
            writer.raw("{")
            writer.key("base")
            writer.string(peg.base)
            writer.raw(",")
            writer.key("rate")
            writer.raw(peg.rate)
            writer.raw(",")
            writer.key("authority")
            writer.string(peg.authority)
            writer.raw("}")
        }
        writer.raw("}")
        return writer.bytes
    }

    /// `/v2/providers`: the one provider of the stored rates, or none while nothing is stored.
    /// `publishes_missed` counts the publication days (Larder's ECB calendar) strictly between the
    /// last stored day and today, for a daily provider whose calendar Larder keeps; null otherwise.
    func providers(today: RateDate) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        writer.raw("[")
        if let provider, let first = coverage.first, let last = coverage.last {
            writer.raw("{")
            Self.member("key", provider.key, &writer, first: true)
            Self.member("name", provider.name, &writer)
            Self.member("country_code", provider.countryCode, &writer)
            Self.member("rate_type", provider.rateType, &writer)
            Self.member("pivot_currency", provider.pivotCurrency ?? base, &writer)
            Self.member("data_url", provider.dataURL, &writer)
            Self.member("terms_url", provider.termsURL, &writer)
            Self.member("start_date", first.description, &writer)
            Self.member("end_date", last.description, &writer)
            Self.member("publish_cadence", provider.publishCadence, &writer)
            writer.raw(",")
            writer.key("publishes_missed")
            if provider == .ecb { writer.int(Self.publicationDays(after: last, before: today)) } else { writer.raw("null") }
            writer.raw(",")
            writer.key("currencies")
            writer.raw("[")
            for (index, code) in coverage.codes.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(code)
            }
            writer.raw("]}")
        }
        writer.raw("]")
        return writer.bytes
    }

    /// The ECB's publication days strictly between two days.
    static func publicationDays(after last: RateDate, before today: RateDate) -> Int {
        var count = 0
        var day = last.adding(days: 1)
        while let current = day, current < today {
            if ECBCalendar.isWorkingDay(current) { count += 1 }
            day = current.adding(days: 1)
        }
        return count
    }

    /// `?providers=` as Frankfurter reads it: upper-cased, split at commas, nothing trimmed.
    static func providerKeys(_ value: String) -> [String] {
        value.uppercased().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// The stored currencies and the pegged ones whose anchor is among them, sorted by code; a
    /// stored currency that is also pegged takes the peg's days where they are wider.
    static func withPegs(_ spans: [String: CurrencyCoverage.Span]) -> [Entry] {
        var listed = Dictionary(uniqueKeysWithValues: spans.map { ($0.key, Entry(code: $0.key, span: $0.value, peg: nil)) })
        for peg in CurrencyPeg.all {
            if var existing = listed[peg.quote] {
                apply(peg, to: &existing, anchor: spans[peg.base])
                listed[peg.quote] = existing
            } else if let anchor = spans[peg.base] {
                var entry = Entry(code: peg.quote, span: anchor, peg: nil)
                apply(peg, to: &entry, anchor: anchor)
                listed[peg.quote] = entry
            }
        }
        return listed.values.sorted { $0.code < $1.code }
    }

    /// A peg widens a currency's days to its anchor's: back to the later of the peg's start and the
    /// anchor's first day, on to the anchor's last day.
    static func apply(_ peg: CurrencyPeg, to entry: inout Entry, anchor: CurrencyCoverage.Span?) {
        entry.peg = peg
        guard let anchor else { return }
        let start = max(peg.since, anchor.first)
        if start < entry.span.first { entry.span.first = start }
        if anchor.last > entry.span.last { entry.span.last = anchor.last }
    }

    /// `iso_code`, `iso_numeric`, `name`, `symbol`, `start_date`, `end_date`: a name the table lacks is the code.
    static func writeFields(_ entry: Entry, into writer: inout JSONWriter) {
        let known = ISOCurrency.known(entry.code)
        member("iso_code", entry.code, &writer, first: true)
        member("iso_numeric", known?.numericCode, &writer)
        member("name", known?.name ?? entry.code, &writer)
        member("symbol", known?.symbol, &writer)
        member("start_date", entry.span.first.description, &writer)
        member("end_date", entry.span.last.description, &writer)
    }

    static func member(_ name: String, _ value: String?, _ writer: inout JSONWriter, first: Bool = false) {
        if !first { writer.raw(",") }
        writer.key(name)
        if let value { writer.string(value) } else { writer.raw("null") }
    }
}
