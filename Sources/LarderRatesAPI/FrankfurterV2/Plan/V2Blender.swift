import Glibc

/// Frankfurter v2's blend of one snapshot of contributor rows: each provider's rows rebased to the USD
/// pivot (`BaseConversion`, with its `reconcile`), outliers marked (`Consensus`), a recency-weighted average
/// per quote (`WeightedAverage`), anchored on the pegs, then derived to the requested base — in binary
/// floating point and in the same order of operations as its `Blender`, `PegAnchor` and
/// `RateQuery#derive` (sums as Ruby's `Array#sum`: `RubySum`), so the same rows give the same doubles.
public struct V2Blender: Sendable {
    public static let pivot = "USD"
    static let decayGraceDays = 3
    static let decayRate = 0.5

    /// The key of rows that name no provider (a one-provider feed's), as `expand=providers` shows it.
    public let provider: String
    /// Today (day number): the weights' reference day is never later.
    public let today: Int

    public init(provider: String, today: Int) {
        self.provider = provider
        self.today = today
    }

    /// The blended rows against `base`, unsorted; empty when `base` cannot be reached.
    /// `withPegs` is false when the request names providers (Frankfurter bypasses the pegs then).
    public func blend(_ rows: [V2Observation], base: String, withPegs: Bool) -> [V2Blended] {
        if !withPegs, V2Peg.find(base) != nil { return [] }
        var blended = weightedAverage(V2Consensus.annotated(rebased(rows)))
        if withPegs { blended = V2PegAnchor.apply(blended, base: Self.pivot) }
        if blended.isEmpty || base == Self.pivot { return blended }
        return derive(blended, target: base)
    }

    /// Frankfurter's `BaseConversion`: per provider (in the order they first appear), every row against
    /// the pivot, through a bridge of the same provider's rows when needed, then `reconcile`: two rows of
    /// one provider for the same day and quote become one, at their mean.
    func rebased(_ rows: [V2Observation]) -> [V2Observation] {
        var order: [String] = []
        var byProvider: [String: [V2Observation]] = [:]
        for row in rows {
            let key = row.provider.isEmpty ? provider : row.provider
            if byProvider[key] == nil { order.append(key) }
            byProvider[key, default: []].append(row)
        }
        return order.flatMap { key in reconcile(converted(byProvider[key]!, provider: key)) }
    }

    private func converted(_ rows: [V2Observation], provider key: String) -> [V2Observation] {
        let pivot = Self.pivot
        var index: [String: Double] = [:]
        for row in rows where index[row.base + row.quote] == nil { index[row.base + row.quote] = row.rate }
        return rows.compactMap { row in
            func pivoted(_ quote: String, _ rate: Double) -> V2Observation {
                V2Observation(provider: key, day: row.day, base: pivot, quote: quote, rate: rate)
            }
            if row.base == pivot { return pivoted(row.quote, row.rate) }
            if row.quote == pivot { return pivoted(row.base, 1.0 / row.rate) }
            if let bridge = index[pivot + row.quote] { return pivoted(row.base, bridge / row.rate) }
            if let bridge = index[pivot + row.base] { return pivoted(row.quote, row.rate * bridge) }
            if let bridge = index[row.base + pivot] { return pivoted(row.quote, row.rate / bridge) }
            return nil
        }
    }

    private func reconcile(_ rows: [V2Observation]) -> [V2Observation] {
        var order: [String] = []
        var groups: [String: [V2Observation]] = [:]
        for row in rows {
            let key = "\(row.day)/" + row.quote
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        return order.map { key in
            let group = groups[key]!
            guard group.count > 1, let first = group.first else { return group[0] }
            let mean = RubySum.of(group.map(\.rate)) / Double(group.count)
            return V2Observation(provider: first.provider, day: first.day, base: first.base, quote: first.quote, rate: mean)
        }
    }

    /// Frankfurter's `WeightedAverage`: per quote, in order of quote, the contributors not excluded
    /// weighted by recency; dated by the newest contributor; every provider's newest row listed.
    func weightedAverage(_ rows: [(row: V2Observation, excluded: Bool)]) -> [V2Blended] {
        guard let newest = rows.map(\.row.day).max() else { return [] }
        let reference = min(newest, today)
        var byQuote: [String: [(row: V2Observation, excluded: Bool)]] = [:]
        for entry in rows { byQuote[entry.row.quote, default: []].append(entry) }
        return byQuote.keys.sorted().compactMap { quote in
            let group = byQuote[quote]!
            let contributors = group.filter { !$0.excluded }.map(\.row)
            guard let latest = Self.firstNewest(contributors) else { return nil }
            let weights = contributors.map { Self.weight(daysOld: reference - $0.day) }
            let total = RubySum.of(weights)
            let rate = RubySum.of(zip(contributors, weights).map { $0.rate * $1 }) / total
            return V2Blended(
                day: latest.day, base: latest.base, quote: quote, rate: rate, providers: Self.contributions(group))
        }
    }

    /// Each provider's newest row of a quote (in order of key), excluded when the consensus excluded it.
    private static func contributions(_ group: [(row: V2Observation, excluded: Bool)]) -> [V2Contribution] {
        var newest: [String: (row: V2Observation, excluded: Bool)] = [:]
        for entry in group where newest[entry.row.provider].map({ entry.row.day > $0.row.day }) ?? true {
            newest[entry.row.provider] = entry
        }
        return newest.keys.sorted().map { key in
            let entry = newest[key]!
            return V2Contribution(key: key, day: entry.row.day, rate: entry.row.rate, excluded: entry.excluded)
        }
    }

    /// Ruby's `max_by` on the day: the first of the newest.
    private static func firstNewest(_ rows: [V2Observation]) -> V2Observation? {
        var found: V2Observation?
        for row in rows where found.map({ row.day > $0.day }) ?? true { found = row }
        return found
    }

    static func weight(daysOld: Int) -> Double {
        exp(-decayRate * Double(max(daysOld - decayGraceDays, 0)))
    }

    /// Frankfurter's `derive`: rows against the pivot rebased to `target` by division, the pivot itself
    /// appended; empty when no row quotes `target`.
    func derive(_ rows: [V2Blended], target: String) -> [V2Blended] {
        guard let toTarget = rows.first(where: { $0.quote == target }) else { return [] }
        let targetRate = toTarget.rate
        var derived = rows.compactMap { row -> V2Blended? in
            guard row.quote != target else { return nil }
            return Self.rebase(row, base: target, quote: row.quote) { $0 / targetRate }
        }
        derived.append(Self.rebase(toTarget, base: target, quote: toTarget.base) { 1.0 / $0 })
        return derived
    }

    static func rebase(_ row: V2Blended, base: String, quote: String, _ transform: (Double) -> Double) -> V2Blended {
        var new = row
        new.base = base
        new.quote = quote
        new.rate = transform(row.rate)
        new.providers = row.providers?.map { provider in
            var moved = provider
            moved.rate = transform(provider.rate)
            return moved
        }
        return new
    }
}
