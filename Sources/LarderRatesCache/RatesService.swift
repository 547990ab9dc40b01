import ServiceLifecycle

/// Runs the rates scheduler for the life of the process: a sync at start, then refreshes before expiry.
public struct RatesService: Service {
    let cache: RatesCache

    public init(cache: RatesCache) {
        self.cache = cache
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await cache.refresher.run()
        }
    }
}
