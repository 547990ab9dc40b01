import LarderRates
import LarderRatesAPI
import LarderStore
import Logging
import Synchronization

/// A Frankfurter v2 mirror's rows as v2's queries read them, straight from the store: the stored days
/// held (a few thousand numbers), each day's rows read with its neighbours in one query when asked,
/// and only the last few such blocks kept, so memory stays flat whatever the mirror's size (a full
/// Frankfurter is millions of rows).
final class StoreMirrorRows: V2RowSource {
    /// Days read per query: a blend's 14-day lookback takes one or two.
    static let blockDays = 16
    /// Blocks kept: a range walks forward, a lookback reaches one block back.
    static let keptBlocks = 4

    private let store: Store
    private let days: [Int]
    private let dates: [String]
    private let logger: Logger
    private let blocks = Mutex<[Int: [[V2Observation]]]>([:])
    /// Blocks read so far (what a test checks to see that rows are read by window).
    let blocksRead = Atomic<Int>(0)

    /// The stored days on or before `notAfter`.
    init(_ store: Store, notAfter: RateDate, logger: Logger) throws(StoreError) {
        let stored = try store.frankfurterDays(notAfter: notAfter.description).compactMap { text in
            RateDate(text).map { (day: $0.dayNumber, text: text) }
        }
        self.store = store
        days = stored.map(\.day)
        dates = stored.map(\.text)
        self.logger = logger
    }

    var count: Int { days.count }

    func day(at index: Int) -> Int { days[index] }

    func rows(at index: Int) -> [V2Observation] {
        let block = index / Self.blockDays
        if let kept = blocks.withLock({ $0[block] }) { return kept[index - block * Self.blockDays] }
        let read = self.read(block)
        blocks.withLock { blocks in
            if blocks.count >= Self.keptBlocks, let farthest = blocks.keys.max(by: { abs($0 - block) < abs($1 - block) }) {
                blocks[farthest] = nil
            }
            blocks[block] = read
        }
        return read[index - block * Self.blockDays]
    }

    /// One block's days, each its rows in the store's order (date, provider, base, quote).
    private func read(_ block: Int) -> [[V2Observation]] {
        let first = block * Self.blockDays
        let last = min(first + Self.blockDays, days.count) - 1
        blocksRead.add(1, ordering: .relaxed)
        var byDay = Array(repeating: [V2Observation](), count: last - first + 1)
        let records: [FrankfurterRowRecord]
        do {
            records = try store.frankfurterRows(from: dates[first], through: dates[last])
        } catch {
            logger.error("rates: reading mirrored rows \(dates[first])…\(dates[last]) failed: \(error)")
            return byDay
        }
        var position = first
        for record in records {
            while position <= last, dates[position] != record.date { position += 1 }
            guard position <= last else { break }
            // Read as Frankfurter reads a stored rate: a double.
            guard let rate = Double(record.rate) else { continue }
            byDay[position - first].append(
                V2Observation(provider: record.provider, day: days[position], base: record.base, quote: record.quote, rate: rate))
        }
        return byDay
    }
}
