import Foundation
import LarderFormats
import LarderHTTP
import LarderRates

/// The part of Frankfurter v2 that Larder's mirror asks, played over `frankfurter/rows.csv` and
/// `frankfurter/providers.json` (read again when either changes, so `PUT /_control/files/frankfurter/rows.csv`
/// changes the answers):
///
/// - `GET /v2/providers`: `providers.json` sorted by key, with `start_date`, `end_date` and `currencies`
///   from each provider's rows, `data_url`, `terms_url`, `publishes_missed` null: Frankfurter's fields
///   only (which way a provider stores its rows is not among them; the mirror probes for it).
/// - `GET /v2/currencies?scope=all`: every code of the rows with its first and last day, and each
///   pegged code whose anchor is there with the anchor's days.
/// - `GET /v2/rates?providers=KEY&base=…[&quotes=…]&from=…&to=…`: one provider's stored rows of that
///   base, their digits as stored, ascending by date then quote, each pair silent on `from` opening
///   with its newest row of the 14 days before (Frankfurter's snap-back); a pegged base is `[]`; a
///   daily range over 5 years without ≤ 5 providers and ≤ 5 quotes, an unknown parameter or a bad
///   date is Frankfurter's 422. A pair stored the other way round is derived as Frankfurter derives it (`1 / rate`
///   rounded by magnitude), so only the stored orientation echoes the digits. A blend of providers is not played.
///
/// Faults and the request log apply as to files.
struct FrankfurterRoutes {
    let set: FrankfurterSet
    let faults: FaultTable
    let log: RequestLog
    /// Today (UTC) for an open range's end.
    let today: @Sendable () -> RateDate

    static let lookbackDays = 14
    static let allowed: Set<String> = ["base", "quotes", "providers", "date", "from", "to", "group", "expand"]

    func register(on router: inout Router) {
        for path in ["/v2/providers", "/v2/currencies", "/v2/rates"] {
            router.add(.get, path, FaultedHandler.make(faults: faults, log: log, path: { _ in path }) { request, fault in
                answer(request, path: path, fault: fault)
            })
        }
    }

    private func answer(_ request: Request, path: String, fault: Fault?) -> Response {
        if let fault, fault.status != nil || fault.body != nil { return FileRoutes.injected(fault) }
        guard let loaded = set.current else { return HTTPError.notFound("no file /\(FrankfurterSet.rowsPath)").response }
        switch path {
        case "/v2/providers": return json(providers(loaded))
        case "/v2/currencies": return json(currencies(loaded))
        default: return rates(request.query, loaded)
        }
    }

    private func providers(_ loaded: FrankfurterSet.Loaded) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("[")
        var first = true
        for key in loaded.order.sorted() {
            guard let rows = loaded.rows[key], let fields = loaded.providers[key] else { continue }
            if !first { writer.raw(",") }
            first = false
            writer.raw("{")
            for (index, name) in ["key", "name", "country_code", "rate_type", "pivot_currency", "data_url", "terms_url"].enumerated() {
                if index > 0 { writer.raw(",") }
                writer.key(name)
                Self.write(fields[name] ?? .null, into: &writer)
            }
            writer.raw(",")
            writer.key("start_date")
            writer.string(rows.first.description)
            writer.raw(",")
            writer.key("end_date")
            writer.string(rows.last.description)
            writer.raw(",")
            writer.key("publish_cadence")
            Self.write(fields["publish_cadence"] ?? .null, into: &writer)
            writer.raw(",\"publishes_missed\":null,")
            writer.key("currencies")
            writer.raw("[")
            writer.raw(rows.codes.map { "\"\($0)\"" }.joined(separator: ","))
            writer.raw("]}")
        }
        writer.raw("]")
        return writer.bytes
    }

    private func currencies(_ loaded: FrankfurterSet.Loaded) -> [UInt8] {
        var spans = loaded.spans
        for peg in CurrencyPeg.all {
            guard let anchor = spans[peg.base] else { continue }
            let span = spans[peg.quote] ?? (max(peg.since, anchor.first), anchor.last)
            spans[peg.quote] = (min(span.first, max(peg.since, anchor.first)), max(span.last, anchor.last))
        }
        var writer = JSONWriter()
        writer.raw("[")
        for (index, code) in spans.keys.sorted().enumerated() {
            if index > 0 { writer.raw(",") }
            let known = ISOCurrency.known(code)
            let span = spans[code]!
            let fields: [(String, String?)] = [
                ("iso_code", code), ("iso_numeric", known?.numericCode), ("name", known?.name ?? code),
                ("symbol", known?.symbol), ("start_date", span.first.description), ("end_date", span.last.description),
            ]
            writer.raw("{")
            for (position, (name, value)) in fields.enumerated() {
                if position > 0 { writer.raw(",") }
                writer.key(name)
                if let value { writer.string(value) } else { writer.raw("null") }
            }
            writer.raw("}")
        }
        writer.raw("]")
        return writer.bytes
    }

    private func rates(_ query: QueryItems, _ loaded: FrankfurterSet.Loaded) -> Response {
        if let unknown = query.names.first(where: { !Self.allowed.contains($0) }) {
            return refused("unknown parameter: \(unknown)")
        }
        let dates = ["date", "from", "to"].map { query[$0].map { RateDate($0) } }
        if dates.contains(where: { $0 != nil && $0! == nil }) { return refused("invalid date") }
        let providers = query["providers"]?.uppercased().split(separator: ",").map(String.init)
        let quotes = query["quotes"]?.uppercased().split(separator: ",").map(String.init)
        let base = query["base"]?.uppercased() ?? "EUR"
        let from = dates[1].flatMap { $0 } ?? dates[0].flatMap { $0 } ?? today()
        let to = dates[2].flatMap { $0 } ?? dates[0].flatMap { $0 } ?? today()
        let cheap = providers.map { Set($0).count <= 5 } == true && quotes.map { Set($0).count <= 5 } == true
        if !cheap, min(to, today()) > Self.fiveYearsAfter(from) {
            return refused("date range exceeds 5 years at daily granularity; filter with quotes= (5 currencies or fewer), aggregate with group=week or group=month, or split the range into shorter requests")
        }
        guard let providers, providers.count == 1, CurrencyPeg.of(base) == nil else { return json(Array("[]".utf8)) }
        // Each pair's newest row on or before `from` within the lookback, then every row in the range.
        let earliest = from.adding(days: -Self.lookbackDays) ?? .firstDay
        let rows = (loaded.rows[providers[0]]?.rows(base: base, from: earliest, to: max(from, to)) ?? []).filter { row in
            row.quote != base && quotes.map { $0.contains(row.quote) } != false
        }
        var opening: [String: FrankfurterSet.Row] = [:]
        for row in rows where row.date <= from && opening[row.quote].map({ $0.date <= row.date }) != false { opening[row.quote] = row }
        let chosen = opening.values.filter { $0.date < from } + rows.filter { from <= $0.date && $0.date <= to }
        return json(Self.body(chosen.sorted { ($0.date, $0.quote) < ($1.date, $1.quote) }))
    }

    /// `[{"date","base","quote","rate"},…]`, the rate's digits as stored, written byte by byte: a mirror's
    /// first sync of the full-size set asks for some 12 million rows, and a string per row was most of
    /// the upstream's time.
    static func body(_ rows: [FrankfurterSet.Row]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(64 * rows.count + 2)
        body.append(UInt8(ascii: "["))
        for (index, row) in rows.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: #"{"date":""#.utf8)
            digits(row.date.year, 1000, into: &body)
            body.append(UInt8(ascii: "-"))
            digits(row.date.month, 10, into: &body)
            body.append(UInt8(ascii: "-"))
            digits(row.date.day, 10, into: &body)
            body.append(contentsOf: #"","base":""#.utf8)
            body.append(contentsOf: row.base.utf8)
            body.append(contentsOf: #"","quote":""#.utf8)
            body.append(contentsOf: row.quote.utf8)
            body.append(contentsOf: #"","rate":"#.utf8)
            body.append(contentsOf: row.rate.utf8)
            body.append(UInt8(ascii: "}"))
        }
        body.append(UInt8(ascii: "]"))
        return body
    }

    /// `value`'s decimal digits from `divisor`'s place down, zero-padded (a date's 4 or 2).
    private static func digits(_ value: Int, _ divisor: Int, into body: inout [UInt8]) {
        var divisor = divisor
        while divisor > 0 {
            body.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// `from` plus 60 months, as Ruby's `Date#>>` moves it (the day clamped to the month's end).
    static func fiveYearsAfter(_ day: RateDate) -> RateDate {
        RateDate(year: day.year + 5, month: day.month, day: day.day)
            ?? RateDate(year: day.year + 5, month: day.month, day: 28) ?? day
    }

    private func refused(_ message: String) -> Response {
        var writer = JSONWriter()
        writer.raw("{\"status\":422,")
        writer.key("message")
        writer.string(message)
        writer.raw("}")
        return Response(status: .unprocessableContent, headers: ["Content-Type": "application/json"], body: .bytes(SharedBytes(writer.bytes)))
    }

    private func json(_ bytes: [UInt8]) -> Response {
        Response(headers: ["Content-Type": "application/json"], body: .bytes(SharedBytes(bytes)))
    }

    private static func write(_ value: JSONValue, into writer: inout JSONWriter) {
        switch value {
        case .string(let text): writer.string(text)
        case .number(let text): writer.raw(text)
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .null, .object, .array: writer.raw("null")
        }
    }
}
