import Foundation
import LarderConfig
import LarderFreshness
import LarderRates
import LarderServing
import LarderUpstream
import Synchronization

/// The rates' upstreams in priority order, each with its health (SPEC §4.12), and which of them sent
/// the validators stored with the copy.
final class RatesUpstreams: Sendable {
    let list: [Upstream<RatesFormat>]
    let health: [UpstreamHealth]
    /// Each upstream's URL without credentials: its name in `/status`, `/metrics` and the logs.
    let labels: [String]
    /// The index of the upstream whose ETag/Last-Modified the store holds; nil when unknown. Kept in
    /// memory, not in the store: after a restart a list's first refresh asks unconditionally once
    /// (one full body), which costs less than a store migration; one upstream owns them always.
    private let validatorOwner: Mutex<Int?>

    init(_ resource: UpstreamResource<RatesFormat>, window: Backoff = UpstreamHealth.defaultWindow) {
        list = resource.upstreams
        health = resource.upstreams.map { _ in UpstreamHealth(window: window) }
        labels = resource.upstreams.map { UpstreamClient.redacted($0.url) }
        validatorOwner = Mutex(resource.upstreams.count == 1 ? 0 : nil)
    }

    var isSingle: Bool { list.count == 1 }

    /// True when the stored validators came from upstream `index`.
    func ownsValidators(_ index: Int) -> Bool {
        validatorOwner.withLock { $0 == index }
    }

    /// Upstream `index` answered and its validators (or none) are stored now.
    func tookValidators(from index: Int) {
        validatorOwner.withLock { $0 = index }
    }

    /// What `/status` and the page show of each upstream at `now`.
    func reports(at now: Date) -> [UpstreamReport] {
        list.indices.map { UpstreamReport(label: labels[$0], format: list[$0].format.rawValue, report: health[$0].report(at: now)) }
    }
}
