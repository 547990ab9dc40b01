import Foundation
import Glibc
import LarderDocuments
import LarderServing
import Logging

/// The directory Larder owns for document bytes: temporary files, atomic installs, and reads that
/// never follow a symlink. Only file names Larder generated ever reach a path here.
struct MirrorDirectory: Sendable {
    let path: String
    /// Downloads go to unnamed files (`StagingFile`); false where the file system cannot.
    let unnamedFiles: Bool

    /// Creates the directory (mode 0700) when missing; `unnamedFiles` nil probes the file system.
    init(path: String, unnamedFiles: Bool? = nil) throws {
        self.path = path
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw MirrorError("cannot create the documents directory \(path): \(String(cString: strerror(errno)))")
        }
        self.unnamedFiles = unnamedFiles ?? Self.takesUnnamedFiles(path)
    }

    /// The stored file name for a document's bytes: unique per name and content, and never a valid
    /// document name itself (`~` is not allowed in names), so a replacement never overwrites a file being served.
    static func fileName(for name: String, sha256: String) -> String {
        name + "~" + sha256.prefix(16)
    }

    /// A fresh temporary file name for `name`: never a document's own file name, and swept at start if left.
    static func temporaryName(for name: String) -> String {
        name + "~" + UUID().uuidString.prefix(8) + DocumentName.temporarySuffix
    }

    /// A new temporary file for a download of `name`, opened for writing, created exclusively.
    func createTemporary(for name: String) throws -> (descriptor: Int32, fileName: String) {
        let fileName = Self.temporaryName(for: name)
        let descriptor = open(path + "/" + fileName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw MirrorError("cannot create a temporary file for \(name): \(String(cString: strerror(errno)))")
        }
        return (descriptor, fileName)
    }

    /// Renames a complete temporary file to its final name. Durable, bytes and name, only after
    /// `syncFiles()`, which a batch shares.
    func place(temporary: String, as fileName: String) throws {
        guard rename(path + "/" + temporary, path + "/" + fileName) == 0 else {
            throw MirrorError("cannot install \(fileName): \(String(cString: strerror(errno)))")
        }
    }

    func remove(_ fileName: String) {
        unlink(path + "/" + fileName)
    }

    /// How to send a stored file of `size` bytes: a descriptor of its own, sent with sendfile, whatever
    /// its size (the server's CPU decides: docs/performance.md#the-1-mib-document); nil when it is
    /// missing, is not a regular file, or is not `size` bytes.
    func source(for fileName: String, size: Int) -> FileSource? {
        guard let (descriptor, actual) = openForReading(fileName) else { return nil }
        // Start-up checks no file (it would cost a pass over all of them), so a damaged one is found here.
        guard actual == UInt64(size) else {
            close(descriptor)
            return nil
        }
        return .descriptor(descriptor, size: actual)
    }

    /// Opens a stored file for reading; nil when it is missing or is not a regular file (a symlink is refused).
    func openForReading(_ fileName: String) -> (descriptor: Int32, size: UInt64)? {
        let descriptor = open(path + "/" + fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return (descriptor, UInt64(info.st_size))
    }

    /// The size of a stored regular file, or nil.
    func size(of fileName: String) -> Int? {
        var info = stat()
        guard lstat(path + "/" + fileName, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// When an entry of the directory was last modified, or nil when it is gone.
    func modified(_ fileName: String) -> Date? {
        var info = stat()
        guard lstat(path + "/" + fileName, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Calls `body` with the directory's entries (not `.` and `..`), `size` names at a time, so a
    /// directory of 100,000 files is never listed whole in memory.
    func forEachPage(of size: Int, _ body: ([String]) throws -> Void) throws {
        guard let handle = opendir(path) else { return }
        defer { closedir(handle) }
        var page: [String] = []
        // nil only for a computed property; 19 is glibc's offset on x86_64 and aarch64.
        let nameOffset = MemoryLayout<dirent>.offset(of: \.d_name) ?? 19
        while let entry = readdir(handle) {
            // Through the pointer, up to the name's NUL: `entry.pointee` would copy a whole `struct
            // dirent`, past the end of a shorter record at the end of glibc's buffer.
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            guard name != ".", name != ".." else { continue }
            page.append(name)
            if page.count == size {
                try body(page)
                page.removeAll(keepingCapacity: true)
            }
        }
        if !page.isEmpty { try body(page) }
    }

    /// Makes `fileNames` (`bytes` in all), written and renamed into the mirror, survive a power cut,
    /// bytes and names, paying for little or none of other processes' writes (`FileSystemSync`).
    func syncFiles(_ fileNames: [String], bytes: Int) throws {
        try FileSystemSync.sync(fileNames, ownBytes: bytes, in: path)
    }
}

/// A problem with the mirror's own files (not the upstream's).
struct MirrorError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
