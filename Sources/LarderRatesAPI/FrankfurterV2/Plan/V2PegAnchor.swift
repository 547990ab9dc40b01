/// Frankfurter's `PegAnchor`: a pegged quote takes its peg's rate (through the peg's base when that is
/// not the rows' base), and a pegged currency no provider covers is synthesized from its anchor.
enum V2PegAnchor {
    static func apply(_ rows: [V2Blended], base: String) -> [V2Blended] {
        guard let reference = rows.map(\.day).max() else { return [] }
        let anchored = rows.map { anchor($0, in: rows, base: base) }
        let emitted = Set(anchored.map(\.quote))
        var synthesized: [V2Blended] = []
        for peg in V2Peg.all where peg.quote != base && !emitted.contains(peg.quote) && reference >= peg.since {
            let rate: Double
            if peg.base == base {
                rate = peg.rate
            } else {
                guard let anchor = anchored.first(where: { $0.quote == peg.base }) else { continue }
                rate = anchor.rate * peg.rate
            }
            synthesized.append(V2Blended(day: reference, base: base, quote: peg.quote, rate: rate, providers: nil))
        }
        return anchored + synthesized
    }

    private static func anchor(_ row: V2Blended, in rows: [V2Blended], base: String) -> V2Blended {
        guard let peg = V2Peg.find(row.quote) else { return row }
        var overridden = row
        if peg.base == base {
            overridden.rate = peg.rate
        } else {
            guard let bridge = rows.first(where: { $0.quote == peg.base }) else { return row }
            overridden.rate = bridge.rate * peg.rate
        }
        overridden.providers = row.providers?.map { provider in
            var excluded = provider
            excluded.excluded = true
            return excluded
        }
        return overridden
    }
}
