import Foundation
import LarderRates
import LarderRatesAPI
import LarderStore
import Logging

extension V2Mirror {
    /// The mirrored rows and providers as the store holds them; nil when nothing is mirrored. A row
    /// dated after `notAfter` (today + 1: an earlier Larder took it, or the clock is wrong) stays on
    /// disk, left out with one log line, and comes back once the bounds pass it (SPEC §4.11).
    static func load(_ store: Store, notAfter: RateDate, lastModified: Date, logger: Logger) throws(StoreError) -> V2Mirror? {
        let records = try store.frankfurterRows()
        guard !records.isEmpty else { return nil }
        var rows: [V2Observation] = []
        rows.reserveCapacity(records.count)
        var outside: [String] = []
        for record in records {
            guard let date = RateDate(record.date), date <= notAfter else {
                outside.append("\(record.provider) \(record.date)")
                continue
            }
            // Read as Frankfurter reads a stored rate: a double.
            guard let rate = Double(record.rate) else { continue }
            rows.append(V2Observation(provider: record.provider, day: date.dayNumber, base: record.base, quote: record.quote, rate: rate))
        }
        if !outside.isEmpty {
            logger.warning("rates: left out \(outside.count) mirrored row(s) after \(notAfter) (today, UTC, + 1 day): \(outside.prefix(5).joined(separator: ", ")); kept on disk, served once the bounds hold them")
        }
        let providers = try store.frankfurterCatalog("providers")
            .flatMap { try? JSONDecoder().decode([V2ProviderInfo].self, from: Data($0)) } ?? []
        return V2Mirror(rows: V2MirrorRows(rows), providers: providers, lastModified: lastModified)
    }
}
