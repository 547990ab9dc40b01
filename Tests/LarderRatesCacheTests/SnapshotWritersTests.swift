import Foundation
import LarderRates
import LarderRatesAPI
@testable import LarderRatesCache
import LarderServing
import LarderTesting
import Synchronization
import Testing

/// SPEC §4.12 with §4.2: the refresh and the cross-check both write the served snapshot; whichever
/// publishes last must keep what the other published meanwhile.
@Suite("The served snapshot has one writer at a time")
struct SnapshotWritersTests {
    static let storedAt = Date(timeIntervalSince1970: 1_790_000_000)

    static func day(_ date: String, usd: String) -> RateSet {
        RateSet(date: RateDate(date)!, base: "EUR", rates: [CurrencyRate(code: "USD", value: PublishedDecimal(usd)!)])
    }

    static func applied(_ days: [RateSet]) -> RatesSync.Applied {
        RatesSync.Applied(
            outcome: RatesRefreshOutcome(kind: .updated, daysChanged: days.count, date: days.last!.date), written: days)
    }

    /// USD on `date` as the snapshot serves it.
    static func usd(_ snapshot: RatesSnapshot?, on date: String) -> Decimal? {
        guard let history = snapshot?.history, let index = history.index(onOrBefore: RateDate(date)!),
              let set = history.set(at: index), set.date == RateDate(date)! else { return nil }
        return set.rates.first { $0.code == "USD" }?.value.value
    }

    /// The refresh has read the snapshot and is merging its new day when the cross-check's correction
    /// of the day before is published; the refresh publishes after it. Deterministic: the test holds
    /// the refresh's merge until the correction is out.
    @Test func aRefreshMergingWhileACorrectionIsPublishedKeepsBoth() async throws {
        let published = Published(
            RatesSnapshot.after(Self.applied([Self.day("2026-11-20", usd: "1.0800")]).written, current: nil, storedAt: Self.storedAt))
        let refreshRead = Atomic<Bool>(false)
        let correctionOut = Atomic<Bool>(false)
        let merges = Atomic<Int>(0)
        let refresh = Thread {
            let newDay = Self.applied([Self.day("2026-11-23", usd: "1.0900")])
            published.update { current in
                if merges.add(1, ordering: .relaxed).newValue == 1 {
                    refreshRead.store(true, ordering: .releasing)
                    while !correctionOut.load(ordering: .acquiring) { usleep(1_000) }
                }
                return RatesSnapshot.after(newDay.written, current: current, storedAt: Self.storedAt)
            }
        }
        refresh.start()
        #expect(try await eventually { refreshRead.load(ordering: .acquiring) })
        // The cross-check's rewrite of the 20th, as `RatesCrossCheck.rewrite` publishes it.
        published.merge(Self.applied([Self.day("2026-11-20", usd: "1.0850")]), storedAt: Self.storedAt)
        #expect(Self.usd(published.current, on: "2026-11-20") == Decimal(string: "1.0850"))
        correctionOut.store(true, ordering: .releasing)
        #expect(try await eventually { Self.usd(published.current, on: "2026-11-23") != nil })
        #expect(Self.usd(published.current, on: "2026-11-23") == Decimal(string: "1.0900"), "the refresh's day is served")
        #expect(Self.usd(published.current, on: "2026-11-20") == Decimal(string: "1.0850"), "the correction is kept")
        #expect(published.current?.set.date == RateDate("2026-11-23"))
        #expect(merges.load(ordering: .relaxed) == 2, "the refresh merged again onto the corrected snapshot")
    }
}
