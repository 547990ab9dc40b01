import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderServing
import LarderUpstream
import Synchronization

/// The rates' upstreams in priority order, each with its health (SPEC §4.12), and which of them sent
/// the validators stored with the copy (after a restart with several, unknown: the first refresh asks
/// unconditionally once, which costs less than a store migration).
final class RatesUpstreams: Sendable {
    let list: [Upstream<RatesFormat>]
    let pool: UpstreamSet
    /// `frankfurter` roots that answered 404 to `/v2/providers`: read as v1 ranges until a restart.
    private let v1Roots = Mutex<Set<Int>>([])
    /// The `ETag` of each mirrored root's `/v2/providers` as of its last whole refresh (in memory: a
    /// restart's first refresh asks everything due once).
    private let catalogues = Mutex<[Int: String]>([:])

    init(_ resource: UpstreamResource<RatesFormat>, window: Backoff = UpstreamHealth.defaultWindow) {
        list = resource.upstreams
        pool = UpstreamSet(
            labels: resource.upstreams.map { UpstreamClient.redacted($0.url) },
            formats: resource.upstreams.map(\.format.rawValue), fallback: resource.upstreams.map(\.fallback), window: window)
    }

    var health: [UpstreamHealth] { pool.health }
    var labels: [String] { pool.labels }
    var isSingle: Bool { list.count == 1 }

    /// True when the stored validators came from upstream `index`.
    func ownsValidators(_ index: Int) -> Bool { pool.source == index }

    /// Upstream `index` answered and its validators (or none) are stored now.
    func tookValidators(from index: Int) { pool.source = index }

    /// True once upstream `index`, a `frankfurter` root, showed it has no v2 (an older Frankfurter).
    func servesV1Only(_ index: Int) -> Bool { v1Roots.withLock { $0.contains(index) } }

    /// Upstream `index` answered 404 to `/v2/providers`: its root is read as v1 ranges from now on.
    func markV1Only(_ index: Int) { _ = v1Roots.withLock { $0.insert(index) } }

    /// The `ETag` of upstream `index`'s `/v2/providers` when a refresh from it last finished whole.
    func catalogueETag(_ index: Int) -> String? { catalogues.withLock { $0[index] } }

    /// A refresh from upstream `index` finished whole on the catalogue that carried `etag`.
    func refreshed(_ index: Int, catalogueETag etag: String?) { catalogues.withLock { $0[index] = etag } }

    /// What `/status` and the page show of each upstream at `now`.
    func reports(at now: Date) -> [UpstreamReport] { pool.reports(at: now) }
}
