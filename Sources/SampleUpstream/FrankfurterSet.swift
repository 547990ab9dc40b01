import Foundation
import LarderFormats
import LarderHTTP
import LarderRates
import Synchronization

/// The multi-provider set under `frankfurter/` as Frankfurter v2 would hold it: `rows.csv`
/// (`provider,date,base,quote,rate`, the published digits as text) and `providers.json`, read again
/// whenever either file changed (a test swaps `rows.csv` over the control API).
final class FrankfurterSet: Sendable {
    /// One stored row, as Frankfurter's `rates` table keeps it.
    struct Row: Sendable {
        let provider: String
        let date: RateDate
        let base: String
        let quote: String
        let rate: String
    }

    /// What the files held when last read.
    struct Loaded: Sendable {
        /// Each provider's rows, indexed.
        var rows: [String: ProviderRows] = [:]
        /// Each code of the rows: its first and last day.
        var spans: [String: (first: RateDate, last: RateDate)] = [:]
        /// `providers.json` as given, each entry by key.
        var providers: [String: [String: JSONValue]] = [:]
        var order: [String] = []
    }

    static let rowsPath = "frankfurter/rows.csv"
    static let providersPath = "frankfurter/providers.json"

    private let files: FileStore
    private let cache = Mutex<(etags: String, loaded: Loaded)?>(nil)

    init(files: FileStore) {
        self.files = files
    }

    /// The set as the files hold it now; nil when `rows.csv` is missing.
    var current: Loaded? {
        guard let rows = files[Self.rowsPath] else { return nil }
        let providers = files[Self.providersPath]
        let etags = rows.etag + (providers?.etag ?? "-")
        if let kept = cache.withLock({ $0 }), kept.etags == etags { return kept.loaded }
        let loaded = Self.read(rows: rows.bytes.array, providers: providers?.bytes.array ?? Array("[]".utf8))
        cache.withLock { $0 = (etags, loaded) }
        return loaded
    }

    private static func read(rows: [UInt8], providers: [UInt8]) -> Loaded {
        var loaded = Loaded()
        var grouped: [String: [Row]] = [:]
        FrankfurterCSV.forEachRow(rows) { row in grouped[row.provider, default: []].append(row) }
        for (key, rows) in grouped {
            let indexed = ProviderRows(rows)
            loaded.rows[key] = indexed
            for (code, span) in indexed.spans {
                let known = loaded.spans[code] ?? span
                loaded.spans[code] = (min(known.first, span.first), max(known.last, span.last))
            }
        }
        if case .array(let entries)? = try? JSONReader.read(providers) {
            for case .object(let fields) in entries {
                guard case .string(let key)? = fields["key"] else { continue }
                loaded.providers[key] = fields
                loaded.order.append(key)
            }
        }
        return loaded
    }
}
