import ServiceLifecycle

/// Runs the documents scheduler for the life of the process: a sync at start, then before each expiry of the index.
public struct DocumentsService: Service {
    let cache: DocumentsCache

    public init(cache: DocumentsCache) {
        self.cache = cache
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await cache.refresher.run()
        }
    }
}
