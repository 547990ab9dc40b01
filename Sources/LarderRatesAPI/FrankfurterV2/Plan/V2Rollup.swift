/// Frankfurter's `weekly_rates` or `monthly_rates`: per bucket, the mean of each (provider, base, quote)'s
/// stored rates, dated by the bucket (`V2Dates.weekBucket`, `monthBucket`), ascending by bucket.
public struct V2Rollup: Sendable {
    public let buckets: [Int]
    private let rows: [[V2Observation]]

    /// The buckets of the days in `days` (every stored day when nil); a bucket at either end may lack
    /// days outside them, so a caller takes only buckets whose days lie well inside (`Rollups.walk`).
    public init(_ source: some V2RowSource, group: V2RatesPlan.Group, days: ClosedRange<Int>? = nil) {
        let weekly = group == .week
        func bucketOf(_ day: Int) -> Int { weekly ? V2Dates.weekBucket(day) : V2Dates.monthBucket(day) }
        // SQLite's `avg` (3.43 and later) sums with Kahan-Babuska-Neumaier, as Ruby's `Array#sum` does.
        var sums: [Int: [String: (row: V2Observation, sum: RubySum.Running, count: Int)]] = [:]
        var order: [Int: [String]] = [:]
        var indices = 0..<source.count
        if let days {
            let first = source.index(onOrBefore: days.lowerBound - 1).map { $0 + 1 } ?? 0
            let end = source.index(onOrBefore: days.upperBound).map { $0 + 1 } ?? 0
            indices = first..<max(first, end)
        }
        for index in indices {
            let bucket = bucketOf(source.day(at: index))
            for row in source.rows(at: index) {
                let key = row.provider + "/" + row.base + "/" + row.quote
                if var entry = sums[bucket]?[key] {
                    entry.sum.add(row.rate)
                    entry.count += 1
                    sums[bucket]![key] = entry
                } else {
                    var sum = RubySum.Running()
                    sum.add(row.rate)
                    sums[bucket, default: [:]][key] = (row, sum, 1)
                    order[bucket, default: []].append(key)
                }
            }
        }
        buckets = sums.keys.sorted()
        rows = buckets.map { bucket in
            order[bucket]!.map { key in
                let entry = sums[bucket]![key]!
                return V2Observation(
                    provider: entry.row.provider, day: bucket, base: entry.row.base, quote: entry.row.quote,
                    rate: entry.sum.total / Double(entry.count))
            }
        }
    }

    public func rows(at index: Int) -> [V2Observation] { rows[index] }

    /// The buckets from the last one on or before `start` (or from `start` when none is) through `end`.
    public func indices(from start: Int, through end: Int) -> Range<Int> {
        var low = 0, high = buckets.count
        while low < high {
            let middle = (low + high) / 2
            if buckets[middle] <= start { low = middle + 1 } else { high = middle }
        }
        let first = low == 0 ? 0 : low - 1
        var last = first
        while last < buckets.count, buckets[last] <= end { last += 1 }
        return first..<last
    }
}
