import Foundation
import Glibc
import Synchronization

/// Makes a batch of the mirror's files durable, bytes and names, paying for at most `othersLimit` of
/// anyone else's unwritten bytes.
///
/// Two ways, chosen per batch from what the system has not written yet (`UnwrittenBytes`):
/// - `syncfs(2)`, one call and one device cache flush for the whole batch, but it writes back every
///   dirty page of the file system, another process's 100 MB as much as Larder's 4 KiB;
/// - each file's own `fdatasync`, up to `width` at once on libdispatch's workers, then one `fsync` of the
///   directory (the renames): only Larder's bytes, but a flush per file (the block layer merges the
///   flushes that arrive together, not all of them).
/// On the build machine a batch of 256 costs some 13 ms with `syncfs` and 40–70 ms file by file, and
/// `syncfs` writes others' bytes at about 1.6 GB/s: it stays the cheaper way up to some 45–90 MB of
/// theirs. Past `othersLimit` each file is synced on its own, so however much someone else writes,
/// it costs the batch nothing. docs/performance.md#durable-commits has the measurements.
enum FileSystemSync {
    /// How a batch is made durable.
    enum Way: Sendable, Equatable {
        case wholeFileSystem
        case eachFile
    }

    /// The most of other processes' unwritten bytes a batch writes back with `syncfs`.
    static let othersLimit = 64 * 1024 * 1024
    /// `fdatasync`s at once. Disk waits, not CPU: more than the cores pays off.
    static let width = 16

    /// The way for a batch of `ownBytes` while the system holds `unwritten` bytes not yet on the disk
    /// (nil when unknown: then each file, which never writes anyone else's).
    static func way(ownBytes: Int, unwritten: Int?) -> Way {
        guard let unwritten else { return .eachFile }
        return unwritten - ownBytes <= othersLimit ? .wholeFileSystem : .eachFile
    }

    /// Makes `fileNames` in `directory` (`ownBytes` in all) and their names durable, the cheaper way.
    static func sync(_ fileNames: [String], ownBytes: Int, in directory: String) throws(MirrorError) {
        switch way(ownBytes: ownBytes, unwritten: UnwrittenBytes.now()) {
        case .wholeFileSystem: try syncFileSystem(of: directory)
        case .eachFile: try syncEach(fileNames, in: directory)
        }
    }

    /// Syncs the bytes of `fileNames` (regular files in `directory`, opened without following
    /// symlinks), then the directory itself. Throws the first failure, after every file was tried.
    static func syncEach(_ fileNames: [String], in directory: String) throws(MirrorError) {
        if fileNames.count == 1 {
            // A client's download, committed at once: synced on the calling (blocking pool's) thread.
            if let error = syncData(directory + "/" + fileNames[0]) { throw error }
        } else if !fileNames.isEmpty {
            let next = Atomic<Int>(0)
            let failure = Mutex<MirrorError?>(nil)
            // On libdispatch's bounded workers and the calling thread, never a thread per call (nor
            // the cooperative pool's: each blocks in the disk's flush).
            DispatchQueue.concurrentPerform(iterations: min(width, fileNames.count)) { _ in
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < fileNames.count else { return }
                    if let error = syncData(directory + "/" + fileNames[index]) {
                        failure.withLock { $0 = $0 ?? error }
                    }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
        }
        try syncDirectory(directory)
    }

    /// `syncfs` of the file system holding `directory`: everything written to it, renames included.
    static func syncFileSystem(of directory: String) throws(MirrorError) {
        if let error = synced(directory, opening: O_RDONLY | O_DIRECTORY | O_CLOEXEC, with: syncfs) { throw error }
    }

    /// Looked up at run time: Swift's Glibc module leaves out the GNU extensions of `<unistd.h>`.
    /// Without it (another libc), `sync()` writes back every file system.
    private static let syncfs: @Sendable (Int32) -> Int32 = {
        typealias SyncFS = @convention(c) (Int32) -> Int32
        guard let found = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else {
            return { _ in Glibc.sync(); return 0 }
        }
        let call = unsafeBitCast(found, to: SyncFS.self)
        return { call($0) }
    }()

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
