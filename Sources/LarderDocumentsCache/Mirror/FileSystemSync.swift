import Glibc

/// `syncfs(2)`: makes everything written to one file system durable in a single call, where an
/// `fsync` per file would each wait for its own journal commit.
enum FileSystemSync {
    private typealias SyncFS = @convention(c) (Int32) -> Int32

    /// Looked up at run time: Swift's Glibc module leaves out the GNU extensions of `<unistd.h>`.
    private static let syncfs: SyncFS? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs")
        .map { unsafeBitCast($0, to: SyncFS.self) }

    /// Syncs the file system holding `descriptor`; 0, or -1 with `errno` set. Without `syncfs` (another
    /// libc), every file system is synced.
    static func sync(_ descriptor: Int32) -> Int32 {
        guard let syncfs else {
            Glibc.sync()
            return 0
        }
        return syncfs(descriptor)
    }
}
