import Foundation
import LarderRates
import LarderServing
import Synchronization

/// What Frankfurter v2's routes derive from one snapshot, once, on first use: the rows, the codes a
/// query may name, the week and month rollups, and the default answer of each day.
final class V2SnapshotState: Sendable {
    let rows: any V2RowSource
    /// The providers the rows come from (stub of part 2's contract).
    let providers: [V2ProviderInfo]
    /// The rows, the materialized blend over them and the rollups, as a query reads them.
    let sources: V2Sources
    /// When any stored day last changed (what a streamed answer's validators come from).
    let lastModified: Date
    private let rollups: Rollups
    private let latest = Mutex<(today: Int, answer: PreparedAnswer)?>(nil)

    convenience init(_ history: RatesHistory, provider: String) {
        self.init(
            rows: V2HistoryRows(history), providers: [V2ProviderInfo(key: provider, currencies: [])],
            lastModified: history.days.map(\.storedAt).max() ?? .distantPast)
    }

    /// Several providers' rows (stub of part 2's contract: blended as one provider's until part 2 lands).
    init(rows: any V2RowSource, providers: [V2ProviderInfo], lastModified: Date) {
        let rollups = Rollups(rows)
        self.rows = rows
        self.providers = providers
        self.rollups = rollups
        sources = V2Sources(
            raw: rows, blended: V2BlendedDays(rows, provider: providers.first?.key ?? "ECB"), rollup: { rollups.rollup($0) })
        self.lastModified = lastModified
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

    /// The default `/v2/rates` answer of `today`, kept until the next day or the next snapshot.
    func latest(today: Int, _ make: () -> PreparedAnswer) -> PreparedAnswer {
        if let kept = latest.withLock({ $0 }), kept.today == today { return kept.answer }
        let answer = make()
        latest.withLock { $0 = (today, answer) }
        return answer
    }

    /// The week and month rollups, each built on first use.
    final class Rollups: Sendable {
        private let rows: any V2RowSource
        private let built = Mutex<[V2RatesPlan.Group: V2Rollup]>([:])

        init(_ rows: any V2RowSource) {
            self.rows = rows
        }

        func rollup(_ group: V2RatesPlan.Group) -> V2Rollup {
            if let kept = built.withLock({ $0[group] }) { return kept }
            let rollup = V2Rollup(rows, group: group)
            return built.withLock { kept in
                if let first = kept[group] { return first }
                kept[group] = rollup
                return rollup
            }
        }
    }
}
