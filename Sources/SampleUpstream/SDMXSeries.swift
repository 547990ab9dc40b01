import Foundation
import LarderHTTP
import LarderRates
import Synchronization

/// The ECB data API's view of the ECB XML files the sample upstream holds: per file, every day's
/// rates and the instant the day was last put or revised (what `updatedAfter` filters on), and
/// the answers sent, for tests to read.
final class SDMXSeries: Sendable {
    /// One day's rates, as published digits, and when it last changed.
    struct Day: Sendable {
        var rates: [String: String]
        var updatedAt: Date
    }

    /// What one `GET /sdmx/…` was answered: its query, status and body size.
    struct Answer: Sendable, Encodable {
        var query: String
        var status: Int
        var bytes: Int
    }

    private struct Entry {
        /// The file version the days were read from; a new version starts the days afresh.
        var etag: String
        var days: [RateDate: Day]
        var answers: [Answer] = []
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let files: FileStore

    init(files: FileStore) {
        self.files = files
    }

    /// The days of the file at `path`, read from the file on first use (or when it changed), each
    /// dated as changed when the file was; nil when there is no such file or it is not ECB XML.
    func days(_ path: String) -> [RateDate: Day]? {
        guard let file = files[path] else { return nil }
        if let entry = entries.withLock({ $0[path] }), entry.etag == file.etag { return entry.days }
        guard let parsed = try? RatesParser.parse(file.bytes.array, format: .ecb, fetchedAt: Date()) else { return nil }
        let changed = Date(timeIntervalSince1970: TimeInterval(file.lastModified))
        var days: [RateDate: Day] = [:]
        for set in parsed.sets {
            days[set.date] = Day(rates: Dictionary(uniqueKeysWithValues: set.rates.map { ($0.code, $0.value.text) }), updatedAt: changed)
        }
        return entries.withLock { entries in
            // A revision made meanwhile wins over a fresh read of the same file version.
            if let entry = entries[path], entry.etag == file.etag { return entry.days }
            entries[path] = Entry(etag: file.etag, days: days)
            return days
        }
    }

    /// Sets `rates` on `day` of the file at `path` (a revision of a past day, or a new day), changed at `at`.
    func revise(_ path: String, day: RateDate, rates: [String: String], at: Date) -> Bool {
        guard days(path) != nil else { return false }
        return entries.withLock { entries in
            guard var entry = entries[path] else { return false }
            var revised = entry.days[day] ?? Day(rates: [:], updatedAt: at)
            revised.rates.merge(rates) { $1 }
            revised.updatedAt = at
            entry.days[day] = revised
            entries[path] = entry
            return true
        }
    }

    func record(_ path: String, _ answer: Answer) {
        entries.withLock { $0[path]?.answers.append(answer) }
    }

    func answers(_ path: String) -> [Answer] {
        entries.withLock { $0[path]?.answers ?? [] }
    }
}
