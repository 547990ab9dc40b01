import LarderRates
import Synchronization

/// Who publishes the cached rates: the configured provider, or the one the feed's format names,
/// which an `auto` feed tells only once a body has been read.
final class RatesPublisher: Sendable {
    private let configured: RatesProvider?
    private let format: Mutex<RatesFormat>

    init(configured key: String?, format: RatesFormat) {
        configured = key.map(RatesProvider.named)
        self.format = Mutex(format)
    }

    /// Told the format of each body read.
    func read(_ format: RatesFormat) {
        self.format.withLock { $0 = format }
    }

    /// nil while an `auto` feed has not been read and no key is configured.
    var provider: RatesProvider? {
        configured ?? RatesProvider.naturalKey(for: format.withLock { $0 }).map(RatesProvider.named)
    }
}
