import Foundation
import Glibc
import Synchronization

/// Makes a batch of the mirror's files durable, and only those: each file's bytes with its own
/// `fdatasync`, `width` at once on threads of their own, then the directory's entries (the renames)
/// with one `fsync` of the directory.
///
/// Not `syncfs(2)`: that writes back every dirty page of the whole file system, another process's
/// 100 MB as much as Larder's 4 KiB, so a batch's durability waited for whatever anyone else had
/// written. Each `fdatasync` here waits for its own device cache flush; side by side, the block layer
/// merges flushes that arrive together. docs/performance.md#durable-commits has the measured costs.
enum FileSystemSync {
    /// `fdatasync`s at once. Disk waits, not CPU: more than the cores pays off.
    static let width = 16

    /// Syncs the bytes of `fileNames` (regular files in `directory`, opened without following
    /// symlinks), then the directory itself. Throws the first failure, after every file was tried.
    static func sync(_ fileNames: [String], in directory: String) throws(MirrorError) {
        if !fileNames.isEmpty {
            let next = Atomic<Int>(0)
            let failure = Mutex<MirrorError?>(nil)
            let group = DispatchGroup()
            for _ in 0..<min(width, fileNames.count) {
                group.enter()
                // Threads of their own, never the cooperative pool's: each blocks in the disk's flush.
                Thread.detachNewThread {
                    defer { group.leave() }
                    while true {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < fileNames.count else { return }
                        if let error = syncData(directory + "/" + fileNames[index]) {
                            failure.withLock { $0 = $0 ?? error }
                        }
                    }
                }
            }
            group.wait()
            if let error = failure.withLock({ $0 }) { throw error }
        }
        try syncDirectory(directory)
    }

    /// `fdatasync` of one file: its bytes and the size that reads them back; nil or the failure.
    private static func syncData(_ path: String) -> MirrorError? {
        synced(path, opening: O_RDONLY | O_NOFOLLOW | O_CLOEXEC, with: fdatasync)
    }

    /// `fsync` of the directory: the names renamed into it survive a power cut.
    private static func syncDirectory(_ path: String) throws(MirrorError) {
        if let error = synced(path, opening: O_RDONLY | O_DIRECTORY | O_CLOEXEC, with: fsync) { throw error }
    }

    private static func synced(_ path: String, opening flags: Int32, with sync: (Int32) -> Int32) -> MirrorError? {
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            return MirrorError("cannot open \(path) to sync it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard sync(descriptor) == 0 else {
            return MirrorError("cannot sync \(path): \(String(cString: strerror(errno)))")
        }
        return nil
    }
}
