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

    /// Frankfurter's `CarryForward`: each (base, quote)'s newest row on or before `day` and at most
    /// `lookback` days older.
    public func carriedForward(to day: Int, lookback: Int = V2Dates.lookbackDays) -> [V2Observation] {
        guard var index = index(onOrBefore: day) else { return [] }
        var seen = Set<String>()
        var rows: [V2Observation] = []
        while index >= 0, self.day(at: index) >= day - lookback {
            for row in self.rows(at: index) where seen.insert(row.base + "/" + row.quote).inserted {
                rows.append(row)
            }
            index -= 1
        }
        return rows
    }
}
