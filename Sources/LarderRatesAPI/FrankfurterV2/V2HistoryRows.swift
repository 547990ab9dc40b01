import LarderRates
import Synchronization

/// The stored history as rows for Frankfurter v2's queries: each day's rates read from its stored
/// object on demand, the last few kept (a carried-forward walk reads each day about ten times).
final class V2HistoryRows: V2RowSource {
    private static let keptDays = 32

    let history: RatesHistory
    private let recent = Mutex<[Int: [V2Observation]]>([:])

    init(_ history: RatesHistory) {
        self.history = history
    }

    var count: Int { history.count }

    func day(at index: Int) -> Int { history.days[index].date.dayNumber }

    func rows(at index: Int) -> [V2Observation] {
        if let kept = recent.withLock({ $0[index] }) { return kept }
        let day = history.days[index]
        let dayNumber = day.date.dayNumber
        let rows = (RatesObjectReader.rates(history.object(at: index)) ?? []).compactMap { rate in
            Double(rate.value.text).map { V2Observation(day: dayNumber, base: day.base, quote: rate.code, rate: $0) }
        }
        recent.withLock { recent in
            if recent.count >= Self.keptDays { recent.removeAll(keepingCapacity: true) }
            recent[index] = rows
        }
        return rows
    }
}
