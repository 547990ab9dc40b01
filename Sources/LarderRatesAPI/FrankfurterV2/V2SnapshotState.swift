import Foundation
import LarderRates
import LarderServing
import Synchronization

/// What Frankfurter v2's routes derive from one snapshot, once, on first use: the rows, the codes a
/// query may name, the week and month rollups, and the default answer of each day.
final class V2SnapshotState: Sendable {
    let rows: any V2RowSource
    /// The rows, the materialized blend over them and the rollups, as a query reads them.
    let sources: V2Sources
    /// When any stored day last changed (what a streamed answer's validators come from).
    let lastModified: Date
    /// A mirror's providers, as its upstream describes them; empty for a one-provider feed.
    let providers: [V2ProviderInfo]
    private let rowCount = Mutex<Int?>(nil)
    private let rollups: Rollups
    private let readCoverage = Mutex<ProviderCoverage?>(nil)
    private let latest = Mutex<(today: Int, answer: PreparedAnswer)?>(nil)
    private let making = Mutex<Void>(())

    /// A one-provider feed's history; its rows name no provider, the queries name them `provider`.
    convenience init(_ history: RatesHistory, provider: String) {
        self.init(
            rows: V2HistoryRows(history), providers: [], provider: provider,
            lastModified: history.days.map(\.storedAt).max() ?? .distantPast)
    }

    /// A mirror of several providers (a Frankfurter v2 upstream's): every row names its provider.
    convenience init(_ mirror: V2Mirror) {
        self.init(rows: mirror.rows, providers: mirror.providers, provider: "", lastModified: mirror.lastModified)
        readCoverage.withLock { $0 = mirror.coverage }
        rowCount.withLock { $0 = mirror.rowCount }
    }

    /// Rows without a store's count (tests).
    convenience init(rows: any V2RowSource, providers: [V2ProviderInfo], lastModified: Date) {
        self.init(rows: rows, providers: providers, provider: "", lastModified: lastModified)
    }

    private init(rows: any V2RowSource, providers: [V2ProviderInfo], provider: String, lastModified: Date) {
        let rollups = Rollups(rows)
        self.rows = rows
        self.rollups = rollups
        self.providers = providers
        self.lastModified = lastModified
        sources = V2Sources(
            raw: rows, blended: V2BlendedDays(rows, provider: provider), rollup: { rollups.rollup($0, for: $1) })
    }

    /// True for a code Frankfurter's currency lookup (the money gem's `Money::Currency.find`) knows: ISO 4217
    /// as Frankfurter patches it, and the gem's non-ISO and retired codes besides.
    static func isKnown(_ code: String) -> Bool {
        ISOCurrency.named(code) != nil || moneyGemExtras.contains(code)
    }

    /// The money gem's `currency_non_iso.json` and `currency_backwards_compatible.json` (7.0.2), which its
    /// lookup also answers: BTC is a currency to Frankfurter, an unknown code an `invalid currency`.
    static let moneyGemExtras: Set<String> = [
        "BCH", "BTC", "CNH", "GBX", "GGP", "IMP", "JEP", "USDC", "XFU",
        "EEK", "GHS", "HRK", "JPY", "LTL", "LVL", "MRO", "MTL", "TMM", "VEF", "ZWD", "ZWL", "ZWN", "ZWR",
    ]

    /// A mirror's coverage of its providers' currencies, read from the rows on first use.
    var coverage: ProviderCoverage {
        if let read = readCoverage.withLock({ $0 }) { return read }
        let read = ProviderCoverage(rows)
        readCoverage.withLock { $0 = read }
        return read
    }

    /// What changes whenever a row does, and is the same on every Larder holding the same rows (a
    /// replica's mirror of a feed's history included): how many rows there are, the identity rows left
    /// out. Rows are only added (a mirror never rewrites one), so the count is the rows' version. A
    /// feed's history is counted on first use (a few thousand days).
    var version: String {
        if let count = rowCount.withLock({ $0 }) { return "\(count) rows" }
        var count = 0
        for index in 0..<rows.count { count += rows.rows(at: index).count { $0.base != $0.quote } }
        rowCount.withLock { $0 = count }
        return "\(count) rows"
    }

    /// The default `/v2/rates` answer of `today` if it is made already.
    func kept(today: Int) -> PreparedAnswer? {
        latest.withLock { $0 }.flatMap { $0.today == today ? $0.answer : nil }
    }

    /// The default `/v2/rates` answer of `today`, kept until the next day or the next snapshot.
    func latest(today: Int, _ make: () -> PreparedAnswer) -> PreparedAnswer {
        if let kept = kept(today: today) { return kept }
        // Made once: the requests arriving meanwhile wait for it rather than each blending the day again.
        return making.withLock { _ in
            if let kept = kept(today: today) { return kept }
            let answer = make()
            latest.withLock { $0 = (today, answer) }
            return answer
        }
    }

    /// The week and month buckets each chunk of a range needs, built from that chunk's days (never the
    /// whole history at once: a mirror's is millions of rows), the last few kept.
    final class Rollups: Sendable {
        private struct Key: Hashable {
            let group: V2RatesPlan.Group
            let chunk: ClosedRange<Int>
        }

        private static let kept = 4
        /// Days either side of a chunk walked so every bucket it answers is whole: a week or a month
        /// bucket's days lie within 31 days of its date.
        private static let margin = 70

        private let rows: any V2RowSource
        private let built = Mutex<[Key: V2Rollup]>([:])

        init(_ rows: any V2RowSource) {
            self.rows = rows
        }

        func rollup(_ group: V2RatesPlan.Group, for chunk: ClosedRange<Int>) -> V2Rollup {
            let key = Key(group: group, chunk: chunk)
            if let kept = built.withLock({ $0[key] }) { return kept }
            let rollup = V2Rollup(rows, group: group, days: walk(chunk))
            built.withLock { built in
                if built.count >= Self.kept { built.removeAll(keepingCapacity: true) }
                built[key] = rollup
            }
            return rollup
        }

        /// From well before the bucket on or before the chunk's start (the last stored day there may be
        /// long before it) to well after its end.
        private func walk(_ chunk: ClosedRange<Int>) -> ClosedRange<Int> {
            let before = rows.index(onOrBefore: chunk.lowerBound).map { rows.day(at: $0) } ?? chunk.lowerBound
            return (min(before, chunk.lowerBound) - Self.margin)...(chunk.upperBound + Self.margin)
        }
    }
}
