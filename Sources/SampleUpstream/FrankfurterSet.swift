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
        /// Each provider's rows, ascending by date then base then quote.
        var rows: [String: [Row]] = [:]
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
        let text = String(decoding: rows, as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let date = RateDate(fields[1]) else { continue }
            loaded.rows[fields[0], default: []].append(
                Row(provider: fields[0], date: date, base: fields[2], quote: fields[3], rate: fields[4]))
        }
        for key in loaded.rows.keys {
            loaded.rows[key]!.sort { ($0.date, $0.base, $0.quote) < ($1.date, $1.base, $1.quote) }
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
