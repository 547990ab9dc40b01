import Foundation
import LarderRates
import LarderRatesAPI
import LarderStore
import Logging

extension V2Mirror {
    /// The mirror as the store holds it, read by window when a query asks (never every row at once);
    /// nil when nothing is mirrored. A row dated after `notAfter` (today + 1: an earlier Larder took it,
    /// or the clock is wrong) stays on disk, left out with one log line, and comes back once the bounds
    /// pass it (SPEC §4.11).
    static func load(_ store: Store, notAfter: RateDate, lastModified: Date, logger: Logger) throws(StoreError) -> V2Mirror? {
        let rows = try StoreMirrorRows(store, notAfter: notAfter, logger: logger)
        let outside = try store.frankfurterRowsAfter(notAfter.description)
        if outside.count > 0 {
            logger.warning("rates: left out \(outside.count) mirrored row(s) after \(notAfter) (today, UTC, + 1 day): \(outside.some.joined(separator: ", ")); kept on disk, served once the bounds hold them")
        }
        guard rows.count > 0 else { return nil }
        let spans = try store.frankfurterCoverage(notAfter: notAfter.description).compactMap { span in
            RateDate(span.first).flatMap { first in
                RateDate(span.last).map { (provider: span.provider, base: span.base, quote: span.quote, first: first, last: $0) }
            }
        }
        let providers = try store.frankfurterCatalog("providers")
            .flatMap { try? JSONDecoder().decode([V2ProviderInfo].self, from: Data($0)) } ?? []
        return V2Mirror(
            rows: rows, providers: providers, lastModified: lastModified, coverage: ProviderCoverage(spans: spans),
            rowCount: try store.frankfurterRowCount(notAfter: notAfter.description))
    }
}
