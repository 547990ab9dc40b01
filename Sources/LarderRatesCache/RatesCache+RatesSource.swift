public import LarderRates
public import LarderRatesAPI

/// The rates routes read the cache through `RatesSource`: the snapshot, the refresher, the events and
/// the logger are its own members; these two are the rest.
extension RatesCache: RatesSource {
    public var provider: RatesProvider? { publisher.provider }
    public var coldWait: Duration { Self.coldWait }
}
