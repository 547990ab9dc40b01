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
