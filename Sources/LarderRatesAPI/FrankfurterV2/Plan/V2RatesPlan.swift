import LarderRates

/// A valid `/v2/rates` query resolved against today, and the walk that yields its rows in order,
/// as Frankfurter's `RateQuery#each` does: one carried-forward snapshot for a day, one per stored day
/// (and the silent start) for a range, one blend per bucket for `group=week|month`.
public struct V2RatesPlan: Sendable {
    /// What the query asks for.
    public enum Scope: Sendable, Equatable {
        /// One day's snapshot (latest is tomorrow's, as Frankfurter's `Date.today + 1`).
        case day(Int)
        /// A range of days, both ends included.
        case range(Int, Int)
    }

    /// `group=` of a range.
    public enum Group: String, Sendable {
        case week
        case month
    }

    public let scope: Scope
    public let base: String
    public let quotes: [String]?
    /// `providers=` as given (upper case), nil without it.
    public let providers: [String]?
    public let group: Group?
    public let expandProviders: Bool
    /// The stored rates' provider key.
    public let provider: String
    public let today: Int

    public init(
        scope: Scope, base: String, quotes: [String]?, providers: [String]?, group: Group?, expandProviders: Bool,
        provider: String, today: Int
    ) {
        self.scope = scope
        self.base = base
        self.quotes = quotes
        self.providers = providers
        self.group = group
        self.expandProviders = expandProviders
        self.provider = provider
        self.today = today
    }

    public var isRange: Bool {
        if case .range = scope { return true }
        return false
    }

    var isRollup: Bool { isRange && group != nil }

    /// Frankfurter answers a plain query (no `providers=`, no `expand=providers`) from its materialized
    /// blend, and the others from the provider rows, blended per request.
    var isPlain: Bool { providers == nil && !expandProviders }

    var blender: V2Blender { V2Blender(provider: provider, today: today) }

    var emitter: V2Emitter {
        V2Emitter(
            base: base, quotes: quotes, passthrough: (providers?.count == 1) && !isRollup,
            expandProviders: expandProviders, isRange: isRange)
    }

    /// The pieces the answer is walked in: the day itself, or Frankfurter's chunks of a range (three
    /// months for days, 21 for weeks, 84 for months).
    public var chunks: [ClosedRange<Int>] {
        switch scope {
        case .day(let day):
            return [day...day]
        case .range(let start, let end):
            var pieces: [ClosedRange<Int>] = []
            let months = group == .week ? 21 : group == .month ? 84 : 3
            var cursor = start
            while cursor <= end {
                // Past 9999-12-31 the month shift clamps: the last chunk then runs to the end.
                let next = V2Dates.addingMonths(cursor, months)
                let chunkEnd = next > cursor ? min(next - 1, end) : end
                pieces.append(cursor...chunkEnd)
                cursor = chunkEnd + 1
            }
            return pieces
        }
    }

    /// Every row of the answer, in order, handed to `body` one at a time.
    public func each(_ source: V2Sources, _ body: (V2Record) -> Void) {
        var walk = Walk()
        for chunk in chunks { each(chunk, source, walk: &walk, body) }
    }

    /// What a range's walk remembers between chunks: the (quote, day) rows already answered, within
    /// the lookback of the chunk at hand (an older one cannot come again), so a whole history walks in flat memory.
    public struct Walk: Sendable {
        struct Seen: Hashable, Sendable {
            let quote: String
            let day: Int
        }

        var seen = Set<Seen>()

        public init() {}
    }

    /// The rows of one of `chunks`, in order.
    public func each(_ chunk: ClosedRange<Int>, _ source: V2Sources, walk: inout Walk, _ body: (V2Record) -> Void) {
        let days: any V2RowSource = isPlain ? source.blended : filter(source.raw) ?? source.raw
        switch scope {
        case .day(let day):
            for record in batch(days.carriedForward(to: day), blended: isPlain) { body(record) }
        case .range:
            if let group {
                // Nothing after today; the chunk's buckets are not even built (a range may run to 9999).
                guard chunk.lowerBound <= today else { return }
                eachBucket(source.rollup(group, chunk), chunk, filter: filter(source.raw), body)
            } else {
                eachDay(days, chunk, &walk, body)
            }
        }
    }

    /// The named providers' rows of `raw` (nil without `providers=`).
    private func filter(_ raw: any V2RowSource) -> V2ProviderFilter? {
        providers.map { V2ProviderFilter(source: raw, keys: Set($0), fallback: provider) }
    }

    /// One snapshot's rows: provider rows blended here, or rows of the materialized blend, only derived.
    private func batch(_ rows: [V2Observation], blended isBlended: Bool = false) -> [V2Record] {
        guard isBlended else {
            return emitter.records(blender.blend(rows, base: base, withPegs: providers == nil), from: rows)
        }
        let pivoted = rows.map { V2Blended(day: $0.day, base: $0.base, quote: $0.quote, rate: $0.rate, providers: nil) }
        let blended = base == V2Blender.pivot ? pivoted : blender.derive(pivoted, target: base)
        return emitter.records(blended, from: [])
    }

    /// Each stored day of the chunk, carried forward, and the chunk's start when it is silent (so the
    /// answer opens with the day before it); a (quote, date) row answers once.
    private func eachDay(_ source: any V2RowSource, _ chunk: ClosedRange<Int>, _ walk: inout Walk, _ body: (V2Record) -> Void) {
        let oldest = chunk.lowerBound - V2Dates.lookbackDays
        walk.seen = walk.seen.filter { $0.day >= oldest }
        var anchors: [Int] = []
        if var index = source.index(onOrBefore: chunk.upperBound) {
            while index >= 0, source.day(at: index) >= chunk.lowerBound {
                anchors.append(source.day(at: index))
                index -= 1
            }
        }
        anchors.reverse()
        if anchors.first != chunk.lowerBound { anchors.insert(chunk.lowerBound, at: 0) }
        for anchor in anchors {
            let rows = source.carriedForward(to: anchor)
            if rows.isEmpty { continue }
            for record in batch(rows, blended: isPlain) where walk.seen.insert(Walk.Seen(quote: record.quote, day: record.date.dayNumber)).inserted {
                body(record)
            }
        }
    }

    /// The buckets of the chunk, each blended on its own, from the bucket on or before its start, as
    /// Frankfurter's `between` does (which repeats a bucket at a chunk's seam).
    private func eachBucket(
        _ rollup: V2Rollup, _ chunk: ClosedRange<Int>, filter: V2ProviderFilter?, _ body: (V2Record) -> Void
    ) {
        for index in rollup.indices(from: chunk.lowerBound, through: chunk.upperBound) {
            let rows = rollup.rows(at: index)
            for record in batch(filter.map { rows.filter($0.accepts) } ?? rows) { body(record) }
        }
    }
}
