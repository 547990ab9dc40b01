import Glibc

/// Hands freed heap back to the system after a large, one-off allocation peak (a history loaded,
/// a documents sync): glibc keeps freed memory for reuse, so the resident size would stay at the peak.
///
/// glibc's `malloc_trim` is not in the Glibc module Swift imports (it lives in `malloc.h`), so it
/// is looked up once by name and called through a C function pointer; absent (another libc), nothing happens.
public enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: Trim.self) }

    public static func releaseFreedMemory() {
        _ = trim?(0)
    }
}
