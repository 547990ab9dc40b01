import Foundation
public import LarderFreshness
import LarderHTTP
import Synchronization

/// How far the upstreams' `Date` headers are from the machine's clock (SPEC §4.11): shown in `/status`
/// and `/metrics` so an operator sees a clock gone wrong, never used for bounds (a hostile upstream
/// could send any date). The last answer that carried a readable `Date` decides.
public final class ClockSkew: Sendable {
    /// Clocks a day apart or less read as 0: an upstream's own clock and caching proxies on the way
    /// make small skews normal, and the bounds allow a day anyway.
    public static let toleranceSeconds = 86_400

    let clock: any FreshnessClock
    /// Upstream minus machine, in whole seconds, or 0 within the tolerance.
    private let measured = Atomic<Int>(0)

    public init(clock: any FreshnessClock) {
        self.clock = clock
    }

    /// The skew `/status` and `/metrics` show: 0 until an upstream answer is more than a day off.
    public var seconds: Int { measured.load(ordering: .relaxed) }

    /// Told of every upstream answer's `Date` header (an unreadable one is ignored).
    public func observe(dateHeader: String) {
        guard let upstream = HTTPDate.parse(dateHeader) else { return }
        let skew = upstream - Int(clock.now.timeIntervalSince1970.rounded(.down))
        measured.store(abs(skew) > Self.toleranceSeconds ? skew : 0, ordering: .relaxed)
    }
}
