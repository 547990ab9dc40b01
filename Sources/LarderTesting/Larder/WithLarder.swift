import Foundation
import LarderApp
public import LarderConfig
public import LarderDocumentsCache
import LarderFreshness
import LarderHTTP
import LarderUpstream
import SampleUpstream
import ServiceLifecycle

/// The one way a test gets a running Larder: a sample upstream and a Larder on loopback ports,
/// the application built and its services run exactly as `larder serve` runs them, on a manual
/// clock (or, with `onSystemClock`, the system's; upstream requests time out after `upstreamTimeout`), and
/// everything stopped and its cache directory removed on every exit path.
///
/// ```swift
/// try await withLarder { configuration, upstream in
///     configuration.rates = .init(url: upstream.url("/rates/eurofxref-daily.xml"), format: .auto)
/// } _: { larder, upstream in
///     #expect(try await larder.get("/rates").status == 200)
/// }
/// ```
public func withLarder<T: Sendable>(
    clock: ManualClock = ManualClock(),
    onSystemClock: Bool = false,
    upstreamTimeout: Duration = .seconds(10),
    commitObserver: (any CommitObserver)? = nil,
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withSampleUpstream { upstream in
        var configuration = TestLarder.defaultConfiguration()
        try await configure(&configuration, upstream)
        let larder = TestLarder(
            configuration: configuration, clock: clock, onSystemClock: onSystemClock, upstreamTimeout: upstreamTimeout,
            commitObserver: commitObserver)
        return try await withCleanup {
            try await larder.start()
            return try await body(larder, upstream)
        } cleanup: {
            await larder.tearDown()
        }
    }
}
