import Crypto
import Foundation
import LarderApp
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderTesting

/// One document as a test publishes it upstream.
struct TestDocument: Sendable {
    var name: String
    var content: [UInt8]
    var updatedAt = "2026-11-01T10:00:00Z"
    var createdAt = "2026-10-01T09:00:00Z"
    /// Published in the index instead of the real hash or size (to test verification).
    var claimedSHA256: String?
    var claimedSize: Int?
    /// Where the index says to fetch it from; the name (relative to the index) when nil.
    var url: String?

    init(_ name: String, _ text: String) {
        self.name = name
        content = Array(text.utf8)
    }

    var sha256: String { SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined() }

    var indexEntry: String {
        #"{"name":"\#(name)","url":"\#(url ?? name)","size":\#(claimedSize ?? content.count),"sha256":"\#(claimedSHA256 ?? sha256)","content_type":"text/plain","created_at":"\#(createdAt)","updated_at":"\#(updatedAt)"}"#
    }
}

/// Where the documents suites publish their index and files on the sample upstream.
enum DocumentsFeed {
    static let indexPath = "/docs/index.json"
    /// The sample upstream's daily ECB file, for the suites that also cache rates.
    static let ratesPath = "/rates/eurofxref-daily.xml"

    /// A JSON index listing `documents`.
    static func index(_ documents: [TestDocument]) -> String {
        #"{"version":1,"generated_at":"2026-11-20T12:00:00Z","documents":["# + documents.map(\.indexEntry).joined(separator: ",") + "]}"
    }
}

extension SampleUpstreamControl {
    /// Puts every document's bytes and then the index listing them (`index` instead, when given),
    /// under `folder` (where `DocumentsFeed.indexPath` is, unless told).
    func publish(_ documents: [TestDocument], index: String? = nil, under folder: String = "/docs/") async throws {
        for document in documents {
            try await put(folder + document.name, document.content)
        }
        try await put(folder + "index.json", index ?? DocumentsFeed.index(documents))
    }
}

/// `withLarder` with `documents` published and Larder's documents pointed at their index; with
/// `rates`, the sample ECB file cached too (both on a 100 s TTL). `configure` may change more
/// (faults installed there are in place before Larder's first sync).
func withDocuments<T: Sendable>(
    _ documents: [TestDocument], rates: Bool = false, upstreamTimeout: Duration = .seconds(10),
    commitObserver: (any CommitObserver)? = nil,
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withLarder(upstreamTimeout: upstreamTimeout, commitObserver: commitObserver) { configuration, upstream in
        try await upstream.publish(documents)
        configuration.documents = UpstreamResource(url: upstream.url(DocumentsFeed.indexPath), format: .auto)
        if rates {
            configuration.rates = UpstreamResource(url: upstream.url(DocumentsFeed.ratesPath), format: .auto)
            configuration.ratesTTL = .seconds(100)
            configuration.documentsTTL = .seconds(100)
        }
        try await configure(&configuration, upstream)
    } _: { larder, upstream in
        try await body(larder, upstream)
    }
}

extension TestLarder {
    /// Waits (bounded) until this run's first sync of every cached resource has finished.
    func waitForSync() async throws -> Bool {
        try await eventually {
            // This run's first attempt has started (a restart loads an old fetched_at) and finished.
            guard let application, let documents = application.documents else { return false }
            let done = { (status: RefreshStatus, refreshing: Bool) in status.lastAttempt != nil && !refreshing }
            return done(documents.refresher.status, documents.refresher.isRefreshing)
                && application.rates.map { done($0.refresher.status, $0.refresher.isRefreshing) } ?? true
        }
    }
}
