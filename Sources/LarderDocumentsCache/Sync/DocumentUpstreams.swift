import Foundation
import LarderConfig
import LarderDocuments
import LarderFreshness
import LarderServing
import LarderUpstream
import Synchronization

/// The documents' upstreams in priority order (SPEC §4.12), each with its health, and which one the
/// held index came from: its validators go only to that one, and its documents' URLs are relative to
/// that one's index URL when they are fetched from another mirror.
final class DocumentUpstreams: Sendable {
    let upstreams: [Upstream<DocumentsFormat>]
    /// Unknown after a restart with several upstreams (the store does not record it): the next index
    /// is then fetched without validators, and until it is, documents are fetched only where listed.
    let pool: UpstreamSet

    init(_ resource: UpstreamResource<DocumentsFormat>) {
        upstreams = resource.upstreams
        pool = UpstreamSet(
            labels: resource.upstreams.map { UpstreamClient.redacted($0.url) },
            formats: resource.upstreams.map(\.format.rawValue), fallback: resource.upstreams.map(\.fallback))
    }

    var labels: [String] { pool.labels }
    var health: [UpstreamHealth] { pool.health }

    /// The upstream the held index came from, when known.
    var indexSource: Int? {
        get { pool.source }
        set { pool.source = newValue }
    }

    /// The upstreams to ask for the index at `now`, in order.
    func order(at now: Date) -> [Int] { pool.order(at: now) }

    /// Where to fetch a document listed at `url`: where the index lists it, then the same relative
    /// path on each other available upstream, in order (none for a URL off its index's origin).
    func sources(for url: String, at now: Date) -> [(label: String, url: String)] {
        guard let source = indexSource else { return [(labels[0], url)] }
        var sources = [(label: labels[source], url: url)]
        guard upstreams.count > 1, let listed = URL(string: url), let index = URL(string: upstreams[source].url) else {
            return sources
        }
        for other in order(at: now) where other != source {
            guard let mirrorIndex = URL(string: upstreams[other].url),
                  let mirrored = MirrorPath.url(of: listed, listedIn: index, onMirror: mirrorIndex)
            else { continue }
            sources.append((labels[other], mirrored.absoluteString))
        }
        return sources
    }

    /// Each upstream's health as `/status` shows it.
    func reports(at now: Date) -> [UpstreamReport] { pool.reports(at: now) }
}
