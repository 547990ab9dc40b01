import Glibc
import LarderHTTP
import Synchronization

/// The mirror's large files, each mapped once and shared by every answer that sends it.
///
/// Sent from memory rather than with sendfile: on loopback, with the client on the same cores, a
/// 1 MiB document went at about 2 × nginx's sendfile from the mapping and 0.7 × with sendfile
/// (docs/performance.md#the-1-mib-document). sendfile spares the server the copy into the socket,
/// but the receiver then pays more for the page cache's pages than the copy cost. The mapping's pages
/// are the page cache's, so the bytes are never copied through Swift. Smaller files go in one
/// sendfile call and are not mapped.
/// A mapped file must never shrink: the mirror's files are named after their content and never rewritten.
final class MappedFiles: Sendable {
    /// Files from this size up are mapped.
    static let threshold = 128 * 1024
    /// At most this many files stay mapped; past it, the older mappings are dropped (answers in
    /// flight keep theirs until they finish).
    static let limit = 64

    private let mapped = Mutex<[String: SharedBytes]>([:])

    /// The mapping of `fileName`, made on first use through `opening`; nil for a small file, a file
    /// whose size is not `size`, or when mapping fails.
    func bytes(_ fileName: String, size: Int, opening: () -> (descriptor: Int32, size: UInt64)?) -> SharedBytes? {
        guard size >= Self.threshold else { return nil }
        if let found = mapped.withLock({ $0[fileName] }) { return found }
        guard let (descriptor, actual) = opening() else { return nil }
        defer { close(descriptor) }
        guard actual == UInt64(size), let bytes = SharedBytes(mapping: descriptor, count: size) else { return nil }
        return mapped.withLock { mapped in
            if let first = mapped[fileName] { return first }
            if mapped.count >= Self.limit { mapped.removeAll() }
            mapped[fileName] = bytes
            return bytes
        }
    }

    /// Drops the mapping of a file that is being deleted.
    func forget(_ fileName: String) {
        _ = mapped.withLock { $0.removeValue(forKey: fileName) }
    }
}
