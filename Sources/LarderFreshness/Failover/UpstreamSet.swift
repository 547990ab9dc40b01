public import Foundation
import Synchronization

/// A resource's upstreams as refreshes see them (SPEC §4.12), whatever the resource: each one's name
/// without credentials, its format's name, its health, and which one the stored copy's validators
/// came from (kept in memory: unknown after a restart with several, so the next fetch is unconditional).
public final class UpstreamSet: Sendable {
    /// Each upstream's URL without credentials: its name in `/status`, `/metrics` and the logs.
    public let labels: [String]
    public let formats: [String]
    public let health: [UpstreamHealth]
    /// Which are marked `;fallback`: asked only when every other failed (SPEC §4.12).
    public let fallback: [Bool]
    private let holder: Mutex<Int?>

    public init(labels: [String], formats: [String], fallback: [Bool] = [], window: Backoff = UpstreamHealth.defaultWindow) {
        self.labels = labels
        self.formats = formats
        self.fallback = labels.indices.map { $0 < fallback.count && fallback[$0] }
        health = labels.map { _ in UpstreamHealth(window: window) }
        holder = Mutex(labels.count == 1 ? 0 : nil)
    }

    /// The upstream the stored copy (and its validators) came from, when known.
    public var source: Int? {
        get { holder.withLock { $0 } }
        set { holder.withLock { $0 = newValue } }
    }

    /// The upstreams to ask at `now`, in order.
    public func order(at now: Date) -> [Int] {
        UpstreamOrder.indices(health, fallback: fallback, at: now)
    }

    /// The failover's candidates for upstreams `indices`, each with its health.
    public func candidates(_ indices: [Int]) -> [UpstreamFailover.Candidate] {
        indices.map { UpstreamFailover.Candidate(label: labels[$0], health: health[$0], fallback: fallback[$0]) }
    }

    /// What `/status` and the page show of each upstream at `now`.
    public func reports(at now: Date) -> [UpstreamReport] {
        labels.indices.map { UpstreamReport(label: labels[$0], format: formats[$0], report: health[$0].report(at: now)) }
    }
}
