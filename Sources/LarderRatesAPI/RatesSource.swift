public import LarderFreshness
public import LarderRates
public import LarderServing
public import Logging

/// What the rates routes read of the cache behind them, and all they read: the served snapshot, who
/// publishes it, the refresh that keeps it (its freshness, its trigger, its clock), the cold wait, and
/// where hits and errors are told. `RatesCache` is one; the routes never see its store or its sync.
public protocol RatesSource: AnyObject, Sendable {
    /// The newest day prepared for serving, with the whole history (nil while nothing is cached), as the
    /// source publishes it. The routes only read it: one inlined atomic read per request.
    var published: Published<RatesSnapshot> { get }
    /// Who publishes the rates (`/v2/providers`); nil while an `auto` feed has not been read.
    var provider: RatesProvider? { get }
    var refresher: Refresher<RatesRefreshOutcome> { get }
    /// SPEC §4.11's "today" (the later of the clock and the newest instant recorded): lookbacks run from it.
    var today: BoundsClock { get }
    /// How long a request with nothing cached waits for the first fetch (SPEC §4.5).
    var coldWait: Duration { get }
    var events: any CacheEvents { get }
    var logger: Logger { get }
    /// Runs `work` off the server's threads, on the process's bounded executor: an answer a mirror
    /// computes from rows it reads from the store.
    func offload<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result
}
