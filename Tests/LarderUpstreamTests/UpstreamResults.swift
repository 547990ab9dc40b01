import LarderTesting
import LarderUpstream
import Synchronization
import Testing

/// The body of a 200, or nil (recorded as an issue) for a 304.
func fetchedBody(_ result: UpstreamResult, sourceLocation: SourceLocation = #_sourceLocation) -> UpstreamBody? {
    guard case .fetched(let body) = result else {
        Issue.record("expected a body, got \(result)", sourceLocation: sourceLocation)
        return nil
    }
    return body
}

let mebibyte = 1 << 20

/// What a sink received, chunk after chunk.
final class Collected: Sendable {
    private let storage = Mutex<[UInt8]>([])

    func append(_ chunk: [UInt8]) {
        storage.withLock { $0 += chunk }
    }

    var bytes: [UInt8] { storage.withLock { $0 } }
}

/// The error of fetching `url` once with a fresh client (its limits changed by `configure`), or nil when it succeeded.
func fetchError(
    _ url: String, maxBytes: Int = mebibyte, _ configure: (inout UpstreamLimits) -> Void = { _ in }
) async throws -> UpstreamError? {
    try await withUpstreamClient(configure) { client in
        await failure { () async throws(UpstreamError) in
            try await client.fetch(url, validators: .none, maxBytes: maxBytes)
        }
    }
}
