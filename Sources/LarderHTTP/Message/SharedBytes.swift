import Glibc

/// Immutable bytes allocated (or mapped from a file) once and shared by every response that sends
/// them, never copied per request.
///
/// libmicrohttpd reads the memory directly; each response that points at it holds a retain that
/// its free callback drops, so replacing the bytes can never free memory still being sent.
public final class SharedBytes: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    public let count: Int
    private let isMapped: Bool

    public init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        base = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 1)
        let destination = UnsafeMutableRawBufferPointer(start: base, count: count)
        // One copy of contiguous bytes (an element-by-element copy costs milliseconds per megabyte).
        let copied: Void? = bytes.withContiguousStorageIfAvailable {
            destination.copyMemory(from: UnsafeRawBufferPointer($0))
        }
        if copied == nil {
            _ = destination.initializeMemory(as: UInt8.self, from: bytes)
        }
        isMapped = false
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
