import LarderUpstream
import Synchronization

/// The upstream of a whole-pipeline input, in memory: the feed's URL answers the input's bodies in
/// order (then is unreachable, so a background refresh changes nothing stored); any other URL
/// answers the body named by its last path component, or a 404. A body whose `ETag` the request
/// sends back is a 304, as a real upstream's would be.
final class InMemoryUpstream: UpstreamTransport {
    private let feedURL: String
    private let feed: Mutex<[[UInt8]]>
    private let files: [String: [UInt8]]

    init(feedURL: String, feed: [[UInt8]], files: [String: [UInt8]] = [:]) {
        self.feedURL = feedURL
        self.feed = Mutex(feed)
        self.files = files
    }

    func stream(
        _ url: String, validators: UpstreamValidators, maxBytes: Int,
        into sink: @Sendable ([UInt8]) async throws -> Void
    ) async throws(UpstreamError) -> UpstreamStreamOutcome {
        let body: [UInt8]
        if url == feedURL {
            guard let next = feed.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
                throw UpstreamError(.unreachable, "\(url): connection refused")
            }
            body = next
        } else {
            let name = url.split(separator: "/").last.map(String.init) ?? ""
            guard let file = files[name] else { throw UpstreamError(.status, "\(url): HTTP 404", status: 404) }
            body = file
        }
        let etag = Self.etag(body)
        if validators.etag == etag { return .notModified(validators, freshFor: nil) }
        guard body.count <= maxBytes else { throw UpstreamError(.tooLarge, "\(url): over \(maxBytes) bytes") }
        do {
            var offset = 0
            // In pieces, as a socket delivers them, so a sink sees more than one chunk.
            while offset < body.count {
                let end = min(offset + 4096, body.count)
                try await sink(Array(body[offset..<end]))
                offset = end
            }
        } catch {
            throw UpstreamError(.transfer, "\(url): \(error)")
        }
        return .streamed(UpstreamStreamedBody(
            byteCount: body.count, validators: UpstreamValidators(etag: etag), contentType: nil))
    }

    /// A strong validator of the bytes (FNV-1a), as an upstream would send.
    static func etag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"\(bytes.count)-\(String(hash, radix: 16))\""
    }
}
