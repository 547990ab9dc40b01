import Glibc

/// Frankfurter v2's blend of one snapshot of contributor rows, for a single provider: rebased to the
/// USD pivot, recency-weighted, anchored on the pegs, then derived to the requested base — in binary
/// floating point and in the same order of operations as its `Blender`, `PegAnchor` and `RateQuery#derive`,
/// so the same rows give the same doubles.
public struct V2Blender: Sendable {
    public static let pivot = "USD"
    static let decayGraceDays = 3
    static let decayRate = 0.5

    /// The provider's key, as `expand=providers` names it.
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
        var blended = weightedAverage(rebased(rows))
        if withPegs { blended = V2PegAnchor.apply(blended, base: Self.pivot) }
        if blended.isEmpty || base == Self.pivot { return blended }
        return derive(blended, target: base)
    }

    /// Frankfurter's `BaseConversion` for one provider: every row against the pivot, through a bridge when needed.
    func rebased(_ rows: [V2Observation]) -> [V2Observation] {
        let pivot = Self.pivot
        var index: [String: Double] = [:]
        for row in rows where index[row.base + row.quote] == nil { index[row.base + row.quote] = row.rate }
        return rows.compactMap { row in
            if row.base == pivot { return row }
            if row.quote == pivot { return V2Observation(day: row.day, base: pivot, quote: row.base, rate: 1.0 / row.rate) }
            if let bridge = index[pivot + row.quote] {
                return V2Observation(day: row.day, base: pivot, quote: row.base, rate: bridge / row.rate)
            }
            if let bridge = index[pivot + row.base] {
                return V2Observation(day: row.day, base: pivot, quote: row.quote, rate: row.rate * bridge)
            }
            if let bridge = index[row.base + pivot] {
                return V2Observation(day: row.day, base: pivot, quote: row.quote, rate: row.rate / bridge)
            }
            return nil
        }
    }

    /// Frankfurter's `WeightedAverage` with one provider: one row per quote, by quote, weighted by recency
    /// (which, alone, leaves the rate as it was but for the rounding of `rate × w / w`).
    func weightedAverage(_ rows: [V2Observation]) -> [V2Blended] {
        guard let newest = rows.map(\.day).max() else { return [] }
        let reference = min(newest, today)
        var byQuote: [String: [V2Observation]] = [:]
        for row in rows { byQuote[row.quote, default: []].append(row) }
        return byQuote.keys.sorted().map { quote in
            let group = byQuote[quote]!
            let weighted = group.map { ($0, Self.weight(daysOld: reference - $0.day)) }
            let total = weighted.reduce(0.0) { $0 + $1.1 }
            let rate = weighted.reduce(0.0) { $0 + $1.0.rate * $1.1 } / total
            let latest = group.max { $0.day < $1.day }!
            let contribution = V2Contribution(key: provider, day: latest.day, rate: latest.rate, excluded: false)
            return V2Blended(day: latest.day, base: latest.base, quote: quote, rate: rate, providers: [contribution])
        }
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
