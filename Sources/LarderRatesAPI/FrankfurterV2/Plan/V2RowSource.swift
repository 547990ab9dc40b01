/// Stored days as Frankfurter v2's queries read them: ascending, each a list of rows.
public protocol V2RowSource: Sendable {
    /// How many stored days there are.
    var count: Int { get }
    /// The day number of stored day `index`.
    func day(at index: Int) -> Int
    /// The rows of stored day `index`.
    func rows(at index: Int) -> [V2Observation]
}

extension V2RowSource {
    /// The index of the last stored day on or before `day`; nil when every stored day is later.
    public func index(onOrBefore day: Int) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self.day(at: middle) <= day { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Frankfurter's `CarryForward`: each (provider, base, quote)'s newest row on or before `day` and at
    /// most `lookback` days older, in the order the keys first appear walking the days up (as its
    /// date-ordered read of the rows meets them: the order the blend then sums in).
    public func carriedForward(to day: Int, lookback: Int = V2Dates.lookbackDays) -> [V2Observation] {
        guard let last = index(onOrBefore: day) else { return [] }
        var first = last
        while first > 0, self.day(at: first - 1) >= day - lookback { first -= 1 }
        guard self.day(at: first) >= day - lookback else { return [] }
        var position: [String: Int] = [:]
        var rows: [V2Observation] = []
        for index in first...last {
            for row in self.rows(at: index) {
                let key = row.provider + "/" + row.base + "/" + row.quote
                if let at = position[key] {
                    if row.day > rows[at].day { rows[at] = row }
                } else {
                    position[key] = rows.count
                    rows.append(row)
                }
            }
        }
        return rows
    }
}
