import CLarderHTTP
import Glibc
import Synchronization

/// Immutable bytes allocated (or mapped from a file) once and shared by every response that sends
/// them, never copied per request.
///
/// libmicrohttpd reads the memory directly; each response that points at it holds a retain that
/// its free callback drops, so replacing the bytes can never free memory still being sent. Large
/// bodies are also written to an answer file (an unnamed file in the cache's directory, else a
/// memfd), sent with sendfile (docs/performance.md#what-an-answer-costs-the-server).
public final class SharedBytes: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    public let count: Int
    private let isMapped: Bool
    /// The answer file holding the bytes, -1 when they are on the heap or mapped from a file.
    let answerFile: Int32
    /// True when the bytes are in an answer file, sent with sendfile.
    public var isInAnswerFile: Bool { answerFile >= 0 }

    /// True when `length` of these bytes go by sendfile from the answer file (`MHDResponses.makeShared`);
    /// a shorter slice goes from memory, with its header in one `sendmsg`.
    func sendsFromAnswerFile(length: Int) -> Bool {
        answerFile >= 0 && length >= Self.answerFileThreshold
    }

    /// Bodies from this size up go in an answer file; smaller ones stay on the heap, sent with their
    /// header in one `sendmsg` (a descriptor would add a `dup` and a `close` to each answer).
    public static let answerFileThreshold = 64 * 1024
    /// At most this many answer files at once (each prepared response of one holds a `dup` too), so
    /// descriptors stay for connections; past it, the heap.
    public static let answerFileLimit = 64
    private static let answerFiles = Atomic<Int>(0)
    /// How many answer files are held now (all of them when a large body went to the heap).
    public static var answerFilesInUse: Int { answerFiles.load(ordering: .relaxed) }

    public init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        base = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 1)
        isMapped = false
        let destination = UnsafeMutableRawBufferPointer(start: base, count: count)
        // One copy of contiguous bytes (an element-by-element copy costs milliseconds per megabyte).
        let copied: Void? = bytes.withContiguousStorageIfAvailable {
            destination.copyMemory(from: UnsafeRawBufferPointer($0))
        }
        if copied == nil {
            _ = destination.initializeMemory(as: UInt8.self, from: bytes)
        }
        // Read from memory (slices, gzip) from the heap copy: a mapping of a disk file would fault
        // (SIGBUS) on a read error once its pages were evicted.
        answerFile = count >= Self.answerFileThreshold ? Self.makeAnswerFile(UnsafeRawBufferPointer(destination)) : -1
    }

    /// The first `count` bytes of an open file, mapped read-only: the pages are the page cache's,
    /// sent from there without a copy. The file must never shrink while mapped (reading past its end
    /// faults). Nil when `count` is 0 or the mapping fails.
    public init?(mapping descriptor: Int32, count: Int) {
        guard count > 0, let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
              address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        base = address
        self.count = count
        isMapped = true
        answerFile = -1
    }

    /// A file holding `bytes` (`larder_answer_file`: an unnamed file in the cache's directory, else a
    /// memory file), written with `write`, which leaves them in large folios that `sendfile` reads in
    /// batches; -1 when none can be made (the bytes are then sent from the heap).
    private static func makeAnswerFile(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard answerFiles.add(1, ordering: .relaxed).newValue <= answerFileLimit else {
            answerFiles.subtract(1, ordering: .relaxed)
            return -1
        }
        let descriptor = larder_answer_file("larder-answer")
        if descriptor >= 0, WriteAll.write(bytes, to: descriptor, at: 0) == nil { return descriptor }
        if descriptor >= 0 { close(descriptor) }  // a full disk: the heap
        answerFiles.subtract(1, ordering: .relaxed)
        return -1
    }

    /// Keeps later large bodies in unnamed files in `directory` (the cache's, on disk) instead of
    /// memfds; set once, at start. False when the directory cannot be opened (memfds then).
    public static func keepLargeBodies(in directory: String) -> Bool {
        larder_answer_file_directory(directory) == 0
    }

    public convenience init(_ string: String) {
        self.init(Array(string.utf8))
    }

    deinit {
        if isMapped {
            munmap(base, count)
        } else {
            base.deallocate()
        }
        if answerFile >= 0 {
            close(answerFile)
            Self.answerFiles.subtract(1, ordering: .relaxed)
        }
    }

    /// The bytes in place, without a copy, while `body` runs (to compress a prepared body once).
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes, for tests and diagnostics; never used on the serving path.
    public var array: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }
}
