import Foundation
import LarderRates
@testable import LarderRatesCache
import LarderStore
import Testing

/// SPEC §4.2–4.3 as `RatesMerge` applies them to a payload and the stored days: values in, a plan out.
@Suite("RatesMerge: what a payload changes in the store")
struct RatesMergeTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    /// When the plans are made: a day after every timestamp these tests give.
    static let now = t0.addingTimeInterval(86_400)
    static let usd = [("USD", "1.0862"), ("JPY", "162.41")]
    static let usdMoved = [("USD", "1.0900"), ("JPY", "162.41")]

    static func day(_ date: String, _ rates: [(String, String)] = usd, created: Date? = nil, updated: Date? = nil) -> RateSet {
        RateSet(
            date: RateDate(date)!, base: "EUR",
            rates: rates.map { CurrencyRate(code: $0.0, value: PublishedDecimal($0.1)!) },
            createdAt: created, updatedAt: updated)
    }

    /// The plan for `payload` against `stored` days, the newest of them taken as the latest.
    static func plan(_ payload: [RateSet], stored: [RateSet], revisions: Bool = false) -> RatesMerge.Plan {
        let records = stored.map { RateSetRecord($0, storedAt: t0) }
        return RatesMerge.plan(
            payload: ParsedRates(sets: payload),
            stored: Dictionary(uniqueKeysWithValues: records.map { ($0.date, $0) }),
            latest: records.max { $0.date < $1.date }, now: now, revisions: revisions)
    }

    @Test func withRevisionsAPayloadOfPastDaysWritesOnlyTheDaysThatDiffer() {
        // An ECB-shaped day: its timestamps are its date's, so a revision keeps them.
        func ecb(_ date: String, _ rates: [(String, String)] = Self.usd) -> RateSet {
            let start = Self.t0 + TimeInterval(RateDate(date)!.day * 60)
            return Self.day(date, rates, created: start, updated: start)
        }
        let stored = [ecb("2026-11-18"), ecb("2026-11-19"), ecb("2026-11-20")]
        let payload = [ecb("2026-11-18"), ecb("2026-11-19", Self.usdMoved)]
        #expect(Self.plan(payload, stored: stored, revisions: true) == RatesMerge.Plan(write: [ecb("2026-11-19", Self.usdMoved)]))
        // Without the flag the same payload is older data, refused whole.
        #expect(Self.plan(payload, stored: stored).regression != nil)
    }

    @Test func withRevisionsARevisedNewestDayWithTheSameTimestampsIsWritten() {
        // Timestamps before `now`, so that they decide (an ECB day's are its own start).
        let stored = [Self.day("2026-11-20", created: Self.t0, updated: Self.t0)]
        let revised = Self.day("2026-11-20", Self.usdMoved, created: Self.t0, updated: Self.t0)
        #expect(Self.plan([revised], stored: stored) == RatesMerge.Plan())
        #expect(Self.plan([revised], stored: stored, revisions: true) == RatesMerge.Plan(write: [revised]))
    }

    @Test func withRevisionsAnUnchangedPastDayWritesNothing() {
        let stored = [Self.day("2026-11-19"), Self.day("2026-11-20")]
        #expect(Self.plan([Self.day("2026-11-19")], stored: stored, revisions: true) == RatesMerge.Plan())
    }

    @Test func anEmptyPayloadChangesNothing() {
        #expect(Self.plan([], stored: [Self.day("2026-11-20")]) == RatesMerge.Plan())
    }

    @Test func everyDayIsWrittenIntoAnEmptyStore() {
        let days = [Self.day("2026-11-19"), Self.day("2026-11-20")]
        #expect(Self.plan(days.reversed(), stored: []) == RatesMerge.Plan(write: days))
    }

    @Test func aNewestDayOlderThanTheCachedOneIsARegression() {
        let plan = Self.plan([Self.day("2026-11-19"), Self.day("2026-11-18")], stored: [Self.day("2026-11-20")])
        #expect(plan.write.isEmpty)
        #expect(plan.regression == "the upstream's newest day 2026-11-19 is older than the cached 2026-11-20")
    }

    @Test func theSameNewestDayUpdatedEarlierIsARegression() {
        let cached = Self.day("2026-11-20", created: Self.t0, updated: Self.t0 + 100)
        let plan = Self.plan([Self.day("2026-11-20", Self.usdMoved, created: Self.t0, updated: Self.t0 + 50)], stored: [cached])
        #expect(plan.write.isEmpty)
        #expect(plan.regression == "the upstream's 2026-11-20 was updated before the cached copy")
    }

    @Test func equalRatesAreNotRewrittenWhateverTheTimestamps() {
        let cached = Self.day("2026-11-20", created: Self.t0, updated: Self.t0)
        let same = Self.day("2026-11-20", created: Self.t0, updated: Self.t0 + 60)
        #expect(Self.plan([same], stored: [cached]) == RatesMerge.Plan())
    }

    @Test func changedRatesWithALaterUpdateReplaceTheDay() {
        let cached = Self.day("2026-11-20", created: Self.t0, updated: Self.t0)
        let newer = Self.day("2026-11-20", Self.usdMoved, created: Self.t0, updated: Self.t0 + 60)
        #expect(Self.plan([newer], stored: [cached]) == RatesMerge.Plan(write: [newer]))
    }

    @Test func changedRatesWithoutTimestampsReplaceTheDay() {
        let changed = Self.day("2026-11-20", Self.usdMoved)
        #expect(Self.plan([changed], stored: [Self.day("2026-11-20")]) == RatesMerge.Plan(write: [changed]))
    }

    @Test func changedRatesWithTheSameTimestampsAreKeptOut() {
        let cached = Self.day("2026-11-20", created: Self.t0, updated: Self.t0)
        let changed = Self.day("2026-11-20", Self.usdMoved, created: Self.t0, updated: Self.t0)
        #expect(Self.plan([changed], stored: [cached]) == RatesMerge.Plan())
    }

    @Test func anOlderCopyOfAPastDayIsSkippedWhileTheNewDayIsWritten() {
        let pastCached = Self.day("2026-11-19", created: Self.t0, updated: Self.t0 + 100)
        let pastOlder = Self.day("2026-11-19", Self.usdMoved, created: Self.t0, updated: Self.t0 + 10)
        let newDay = Self.day("2026-11-20")
        let plan = Self.plan([pastOlder, newDay], stored: [pastCached])
        #expect(plan == RatesMerge.Plan(write: [newDay]), "a past day never regresses, and that refuses nothing else")
    }

    @Test func aStoredDayThatNoLongerReadsIsWrittenAgain() {
        var broken = RateSetRecord(Self.day("2026-11-20"), storedAt: Self.t0)
        broken.rates[0].value = "not a number"
        let fresh = Self.day("2026-11-20")
        let plan = RatesMerge.plan(
            payload: ParsedRates(sets: [fresh]), stored: [broken.date: broken], latest: broken, now: Self.now)
        #expect(plan == RatesMerge.Plan(write: [fresh]))
    }

    @Test func aCachedUpdatedAtAfterNowRefusesNothing() {
        // An upstream once said 9999: kept as data, but it decides nothing, so the real copy replaces it.
        let poisoned = Self.day("2026-11-20", created: Self.t0, updated: Date(timeIntervalSince1970: 253_402_214_400))
        let real = Self.day("2026-11-20", Self.usdMoved, created: Self.t0, updated: Self.t0.addingTimeInterval(60))
        #expect(Self.plan([real], stored: [poisoned]) == RatesMerge.Plan(write: [real]))
    }

    @Test func anOfferedUpdatedAtAfterNowIsNoReasonToReplace() {
        // Only a timestamp both sides know, up to now, may call the cached copy stale.
        let held = Self.day("2026-11-20", created: Self.t0, updated: Self.t0)
        let future = Self.day("2026-11-20", Self.usdMoved, created: Self.t0, updated: Self.now.addingTimeInterval(3600))
        #expect(Self.plan([future], stored: [held]) == RatesMerge.Plan(write: [future]), "unknown counts as stale")
        let regression = Self.plan([Self.day("2026-11-20", Self.usdMoved, created: Self.t0, updated: Self.t0.addingTimeInterval(-60))],
                                   stored: [Self.day("2026-11-20", created: Self.t0, updated: Self.now.addingTimeInterval(3600))])
        #expect(regression.regression == nil, "a cached timestamp after now cannot make the offered copy a regression")
    }
}
