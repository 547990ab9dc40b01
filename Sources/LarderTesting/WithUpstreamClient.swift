public import LarderUpstream

/// Runs `body` with an upstream client under `limits` (the defaults, with timeouts short enough that a
/// hang fails the test quickly yet long enough for a loaded machine), shut down on every exit path.
public func withUpstreamClient<T>(
    _ configure: (inout UpstreamLimits) -> Void = { _ in }, _ body: (UpstreamClient) async throws -> T
) async throws -> T {
    var limits = UpstreamLimits()
    limits.connectTimeout = .seconds(5)
    limits.requestTimeout = .seconds(20)
    configure(&limits)
    let client = UpstreamClient(limits: limits, version: "test", logger: quietLogger)
    return try await withCleanup { try await body(client) } cleanup: { await client.shutdown() }
}

/// The error `work` fails with, or nil when it succeeds: for tests of how something fails.
public func failure<T, Failure: Error>(of work: () async throws(Failure) -> T) async -> Failure? {
    do {
        _ = try await work()
        return nil
    } catch {
        return error
    }
}
