import Glibc
import Synchronization

/// The mirror's large files, each opened once and kept open: an answer sends a `dup` of the descriptor
/// with sendfile, so the bytes go from the page cache to the socket without a copy, and a request
/// costs neither a path lookup nor an `fstat`.
///
/// Not a mapping sent from memory: `send` copies every byte into the socket where sendfile hands over
/// the page cache's pages; the copy was most of the server's CPU for a 1 MiB answer, two to four times
/// sendfile's (docs/performance.md#the-1-mib-document). scripts/libmicrohttpd.sh's build lets
/// libmicrohttpd send up to 2 MiB per sendfile call, where 1.0.10 stops at 128 KiB per turn of its loop.
/// A cached file must never shrink: the mirror's files are named after their content and never rewritten.
final class OpenFiles: Sendable {
    /// Files from this size up are kept open; smaller ones are opened per answer (one sendfile call).
    static let threshold = 128 * 1024
    /// At most this many files stay open; past it, all are closed (answers in flight keep their `dup`s).
    static let limit = 64

    private let open = Mutex<[String: Int32]>([:])

    /// A descriptor of `fileName` the caller owns (a `dup` of the one kept), opened on first use
    /// through `opening`; nil for a small file, a file whose size is not `size`, or when out of descriptors.
    func descriptor(_ fileName: String, size: Int, opening: () -> (descriptor: Int32, size: UInt64)?) -> Int32? {
        guard size >= Self.threshold else { return nil }
        if let kept = open.withLock({ $0[fileName].map { dup($0) } }) { return kept >= 0 ? kept : nil }
        guard let (descriptor, actual) = opening() else { return nil }
        guard actual == UInt64(size) else {
            close(descriptor)
            return nil
        }
        let given = open.withLock { open -> Int32 in
            if let first = open[fileName] {
                close(descriptor)
                return dup(first)
            }
            if open.count >= Self.limit {
                for kept in open.values { close(kept) }
                open.removeAll()
            }
            open[fileName] = descriptor
            return dup(descriptor)
        }
        return given >= 0 ? given : nil
    }

    /// Closes the kept descriptor of a file that is being deleted.
    func forget(_ fileName: String) {
        if let kept = open.withLock({ $0.removeValue(forKey: fileName) }) { close(kept) }
    }

    deinit {
        for kept in open.withLock({ $0.values }) { close(kept) }
    }
}
