/// Immutable bytes allocated once and shared by every response that sends them, never copied per request.
///
/// libmicrohttpd reads the memory directly; each response that points at it holds a retain that
/// its free callback drops, so replacing the bytes can never free memory still being sent.
public final class SharedBytes: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    public let count: Int

    public init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        base = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 1)
        _ = UnsafeMutableRawBufferPointer(start: base, count: count).initializeMemory(as: UInt8.self, from: bytes)
    }

    public convenience init(_ string: String) {
        self.init(Array(string.utf8))
    }

    deinit {
        base.deallocate()
    }

    /// A copy of the bytes, for tests and diagnostics; never used on the serving path.
    public var array: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }
}
