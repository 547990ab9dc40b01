public import Foundation

/// Every stored day in memory, compactly: each day's rates object as served (`{"AUD":1.6,…}`) in one
/// contiguous buffer, so day and range answers are assembled without SQL and without re-rendering
/// (the ECB's whole history, ~6,800 days × 30 currencies, is about 3 MB here).
public struct RatesHistory: Sendable {
    /// One stored day: where its rates object lies in `objects`.
    public struct Day: Sendable {
        public let date: RateDate
        public let base: String
        /// When Larder stored this day's content (its `Last-Modified`).
        public let storedAt: Date
        public let start: Int
        public let end: Int
    }

    /// Ascending by date.
    public private(set) var days: [Day] = []
    public private(set) var objects: [UInt8] = []
    /// True when every day has the same base (a series without a conversion is then the stored objects as they are).
    public private(set) var hasOneBase = true

    public init() {}

    /// Days given oldest first, each with its rendered rates object.
    public init(_ entries: some Sequence<(date: RateDate, base: String, storedAt: Date, object: [UInt8])>) {
        for entry in entries { append(entry.date, entry.base, entry.storedAt, entry.object) }
    }

    private mutating func append(_ date: RateDate, _ base: String, _ storedAt: Date, _ object: some Collection<UInt8>) {
        let start = objects.count
        objects.append(contentsOf: object)
        if let first = days.first, first.base != base { hasOneBase = false }
        days.append(Day(date: date, base: base, storedAt: storedAt, start: start, end: objects.count))
    }

    public var isEmpty: Bool { days.isEmpty }
    public var count: Int { days.count }

    /// The index of `date` or of the latest stored day before it; nil when every stored day is later.
    public func index(onOrBefore date: RateDate) -> Int? {
        var low = 0, high = days.count
        while low < high {
            let middle = (low + high) / 2
            if days[middle].date <= date { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The rates object of day `index`, as stored.
    public func object(at index: Int) -> ArraySlice<UInt8> {
        objects[days[index].start..<days[index].end]
    }

    /// Day `index` as a rate set (names are not kept here), for conversions.
    public func set(at index: Int) -> RateSet? {
        guard let rates = RatesObjectReader.rates(object(at: index)) else { return nil }
        return RateSet(date: days[index].date, base: days[index].base, rates: rates)
    }

    /// This history with `sets` added, or replacing the days of the same date.
    public func merging(_ sets: [RateSet], storedAt: Date) -> RatesHistory {
        var written: [RateDate: RateSet] = [:]
        for set in sets { written[set.date] = set }
        var merged = RatesHistory()
        merged.objects.reserveCapacity(objects.count)
        var pending = sets.map(\.date).sorted()[...]
        func addWritten(upTo limit: RateDate?) {
            while let next = pending.first, limit.map({ next < $0 }) ?? true {
                pending.removeFirst()
                let set = written[next]!
                merged.append(set.date, set.base, storedAt, RatesObjectReader.object(for: set))
            }
        }
        for index in days.indices {
            let day = days[index]
            addWritten(upTo: day.date)
            if written[day.date] != nil { continue }
            merged.append(day.date, day.base, day.storedAt, object(at: index))
        }
        addWritten(upTo: nil)
        return merged
    }
}
