public import LarderRates
public import LarderRatesAPI
public import LarderServing
import LarderStore

/// The rates routes read the cache through `RatesSource`: the refresher, the events and the logger are
/// its own members; these are the rest.
extension RatesCache: RatesSource {
    public var published: Published<RatesSnapshot> { snapshot }
    public var provider: RatesProvider? { publisher.provider }
    public var coldWait: Duration { Self.coldWait }

    public func offload<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await store.blocking.run { work() }
    }
}
