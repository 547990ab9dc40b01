import LarderHTTP
import LarderRates

/// The parameters of `/v2/rates` and `/v2/rate/{base}/{quote}`, checked as Frankfurter's `RateQuery`
/// checks them, in its order: unknown names, dates, conflicts, group, expansion, currencies, cost.
struct V2RatesQuery: Sendable {
    static let allowed = ["base", "quotes", "providers", "date", "from", "to", "group", "expand"]
    /// Past this, a daily range with `providers=` or `expand=providers` is refused (Frankfurter's live path).
    static let maxDailyRangeYears = 5
    static let maxDailyRangeQuotes = 5
    static let maxDailyRangeProviders = 5

    var base = "EUR"
    var quotes: [String]?
    var providers: [String]?
    var date: RateDate?
    var from: RateDate?
    var to: RateDate?
    var group: V2RatesPlan.Group?
    var expandProviders = false

    /// No parameters: the latest rates against EUR.
    init() {}

    /// Parses `items` (a repeated name: the last value wins, as Rack's); `overrides` replace what the
    /// path says (`/v2/rate/{base}/{quote}`); `isKnown` tells a currency code from a typo.
    init(
        _ items: some Sequence<(name: String, value: String)>, overrides: [(String, String)] = [],
        isKnown: (String) -> Bool
    ) throws(V2Error) {
        var names: [String] = []
        var values: [String: String] = [:]
        for (name, value) in items.map({ ($0.name, $0.value) }) + overrides {
            if values[name] == nil { names.append(name) }
            values[name] = value
        }
        let unknown = names.filter { !Self.allowed.contains($0) }
        if !unknown.isEmpty { throw .unknownParameters(unknown) }
        for name in ["date", "from", "to"] {
            if let text = values[name], Self.date(text) == nil { throw .invalidDate }
        }
        date = values["date"].flatMap(Self.date)
        from = values["from"].flatMap(Self.date)
        to = values["to"].flatMap(Self.date)
        if date != nil, from != nil || to != nil { throw .conflictingParams }
        if let text = values["group"] {
            guard let group = V2RatesPlan.Group(rawValue: text.lowercased()) else { throw .invalidGroup }
            self.group = group
        }
        if let text = values["expand"] {
            let expansions = Self.rubySplit(text.lowercased())
            let unknown = expansions.filter { $0 != "providers" }
            if !unknown.isEmpty { throw .invalidExpand(unknown) }
            expandProviders = expansions.contains("providers")
        }
        if let text = values["base"] { base = text.uppercased() }
        quotes = values["quotes"].map { Self.rubySplit($0.uppercased()) }
        providers = values["providers"].map { Self.rubySplit($0.uppercased()) }
        var invalid: [String] = []
        if values["base"] != nil, !isKnown(base) { invalid.append(base) }
        invalid += (quotes ?? []).filter { !isKnown($0) }
        if !invalid.isEmpty { throw .invalidCurrency(invalid) }
    }

    /// A date as Frankfurter's `Date.parse` reads the forms a client sends: `2026-11-20`, and the
    /// compact `20261120`.
    static func date(_ text: String) -> RateDate? {
        if let date = RateDate(text) { return date }
        let bytes = Array(text.utf8)
        guard bytes.count == 8, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return RateDate("\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))")
    }

    /// Ruby's `String#split(",")`: empty pieces kept but for trailing ones.
    static func rubySplit(_ text: String) -> [String] {
        var pieces = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        while pieces.last == "" { pieces.removeLast() }
        return pieces
    }

    /// The plan against the serving day (latest is tomorrow's snapshot, an open range ends today, a
    /// date after an offline day is that day); refused when a daily range is too long for the live path
    /// Frankfurter takes with providers named or expanded.
    func plan(provider: String, on serving: ServingDay) throws(V2Error) -> V2RatesPlan {
        let today = serving.today.dayNumber
        let scope: V2RatesPlan.Scope
        if let date {
            scope = .day(serving.answering(date).dayNumber)
        } else if let from {
            scope = .range(serving.answering(from).dayNumber, to.map(serving.answering)?.dayNumber ?? today)
        } else {
            scope = .day(today + 1)
        }
        if case .range(let start, let end) = scope, group == nil, providers != nil || expandProviders {
            let cheap = providers.map { Set($0).count <= Self.maxDailyRangeProviders } ?? false
                && quotes.map { Set($0).count <= Self.maxDailyRangeQuotes } ?? false
            if !cheap, min(end, today) > V2Dates.addingMonths(start, Self.maxDailyRangeYears * 12) {
                throw V2Error(.unprocessableContent, "date range exceeds 5 years at daily granularity; filter with quotes= (5 currencies or fewer), aggregate with group=week or group=month, or split the range into shorter requests")
            }
        }
        return V2RatesPlan(
            scope: scope, base: base, quotes: quotes, providers: providers, group: group,
            expandProviders: expandProviders, provider: provider, today: today)
    }

    /// True when the answer anchors on today (latest, or a range without `to`), so it changes at midnight.
    var isDateRelative: Bool { date == nil && !(from != nil && to != nil) }
}
