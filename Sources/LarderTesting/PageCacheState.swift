import Glibc

/// What the page cache holds of one file, from `cachestat(2)` (Linux 6.5 and later): whether any of
/// its pages still wait to be written to the disk.
public struct PageCacheState: Sendable, Equatable {
    /// Pages changed in memory and not yet written back.
    public let dirty: UInt64
    /// Pages being written back right now.
    public let writeback: UInt64

    /// True when every cached page of the file is on the disk.
    public var isClean: Bool { dirty == 0 && writeback == 0 }

    /// The state of the file at `path`; nil when it cannot be opened or the kernel has no `cachestat`.
    public static func of(_ path: String) -> PageCacheState? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, let call = cachestat else { return nil }
        defer { close(descriptor) }
        // struct cachestat_range { __u64 off, len; } (len 0: to the end) and struct cachestat's five __u64s.
        var range: (UInt64, UInt64) = (0, 0)
        var figures: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        guard call(cachestatNumber, Int(descriptor), &range, &figures, 0) == 0 else { return nil }
        return PageCacheState(dirty: figures.1, writeback: figures.2)
    }

    /// `cachestat`'s number in the generic system call table, which x86_64 and aarch64 share from 425 on.
    private static let cachestatNumber = 451
    /// glibc's `syscall(2)`, looked up once: Swift does not import C variadic functions, and glibc's
    /// `syscall` reads only its integer registers, so a fixed-argument pointer to it is safe here.
    private typealias SystemCall = @convention(c) (
        Int, Int, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UInt32
    ) -> Int
    private static let cachestat: SystemCall? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall")
        .map { unsafeBitCast($0, to: SystemCall.self) }
}
