import Glibc

/// A download's bytes on their way into the mirror: an unnamed file (`O_TMPFILE`) where the file
/// system allows it, else a named temporary file.
///
/// Unnamed, a download costs the directory one entry, added once its bytes are verified (`linkat`),
/// and a failed one costs it nothing; named, it costs a create and a rename, each a change to the one
/// directory all downloads share (at 16 side by side, 10,000 files of 1–4 KiB took 0.44 s of kernel
/// time against 0.23 s unnamed on the build machine: docs/performance.md#the-first-sync).
struct StagingFile {
    let descriptor: Int32
    /// The temporary file's name in the mirror directory; nil for an unnamed file.
    let temporaryName: String?
}

/// Where a verified download's bytes wait for their commit.
enum StagedBytes: Sendable, Equatable {
    /// In a named temporary file, renamed to the record's file name at the commit.
    case temporary(String)
    /// Already under the record's file name (linked once verified); the commit syncs and records them.
    case linked
}

extension MirrorDirectory {
    /// `O_TMPFILE`: Swift's Glibc module does not import the macro (`__O_TMPFILE | O_DIRECTORY`).
    private static let openUnnamed: Int32 = 0o20_000_000 | O_DIRECTORY

    /// A new file for a download of `name`, opened for writing: unnamed when `unnamedFiles` (probed
    /// at start), else a named temporary file, created exclusively.
    func createStaging(for name: String) throws -> StagingFile {
        if unnamedFiles {
            let descriptor = open(path, Self.openUnnamed | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return StagingFile(descriptor: descriptor, temporaryName: nil) }
        }
        let temporary = try createTemporary(for: name)
        return StagingFile(descriptor: temporary.descriptor, temporaryName: temporary.fileName)
    }

    /// Gives the verified bytes of `staging` their place: an unnamed file is linked as `fileName` now
    /// (or, when that name exists — a file left by a crash, not yet swept — linked under a temporary
    /// name that the commit renames over it); a named temporary file waits for the commit's rename.
    /// Call before closing the descriptor.
    func stage(_ staging: StagingFile, as fileName: String) throws -> StagedBytes {
        if let temporaryName = staging.temporaryName { return .temporary(temporaryName) }
        if link(staging.descriptor, as: fileName) == 0 { return .linked }
        guard errno == EEXIST else { throw linkError(fileName) }
        let temporaryName = Self.temporaryName(for: fileName)
        guard link(staging.descriptor, as: temporaryName) == 0 else { throw linkError(temporaryName) }
        return .temporary(temporaryName)
    }

    /// Lets go of a download's file that will not be kept: an unnamed one vanishes with its descriptor.
    func discard(_ staging: StagingFile) {
        close(staging.descriptor)
        if let temporaryName = staging.temporaryName { remove(temporaryName) }
    }

    /// Whether this directory takes unnamed files that can then be linked: `O_TMPFILE` needs the file
    /// system's support (ext4, XFS, Btrfs, tmpfs; not every overlay or network file system), and the
    /// link goes through /proc/self/fd. Probed once, with a file linked and removed again.
    static func takesUnnamedFiles(_ path: String) -> Bool {
        let descriptor = open(path, openUnnamed | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let probe = path + "/" + temporaryName(for: ".larder-probe")
        guard link(descriptor, at: probe) == 0 else { return false }
        unlink(probe)
        return true
    }

    private func link(_ descriptor: Int32, as fileName: String) -> Int32 {
        Self.link(descriptor, at: path + "/" + fileName)
    }

    /// Names the unnamed file open as `descriptor` `path`, through /proc (`AT_EMPTY_PATH` needs a capability).
    private static func link(_ descriptor: Int32, at path: String) -> Int32 {
        linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW)
    }

    private func linkError(_ fileName: String) -> MirrorError {
        MirrorError("cannot place \(fileName): \(String(cString: strerror(errno)))")
    }
}
