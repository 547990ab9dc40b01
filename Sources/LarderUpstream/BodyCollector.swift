import Synchronization

/// The chunks of a body `fetch` keeps in memory, joined once at the end.
///
/// Kept as separate chunks so a body that ends up over the cap never costs more than the cap: one
/// growing array would double its storage, and briefly hold old and new, on the way there.
/// The sink that fills it is `@Sendable`, hence the lock.
final class BodyCollector: Sendable {
    private let chunks = Mutex<[[UInt8]]>([])

    func append(_ chunk: [UInt8]) {
        chunks.withLock { $0.append(chunk) }
    }

    var bytes: [UInt8] {
        chunks.withLock { chunks in
            var joined: [UInt8] = []
            joined.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
            for chunk in chunks { joined += chunk }
            return joined
        }
    }
}
