import Foundation
import Synchronization
import LarderHTTP

/// One file the sample upstream serves, with the validators it answers conditional requests by.
struct StoredFile: Sendable {
    let bytes: SharedBytes
    let etag: String
    /// Seconds since 1970, whole seconds as HTTP dates carry.
    let lastModified: Int
    let contentType: String

    init(bytes: [UInt8], lastModified: Int, contentType: String) {
        self.bytes = SharedBytes(bytes)
        etag = Self.strongETag(bytes)
        self.lastModified = lastModified
        self.contentType = contentType
    }

    /// A strong validator from the content: FNV-1a 64 and the length (collisions are harmless here).
    static func strongETag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))-\(String(bytes.count, radix: 16))\""
    }
}

/// The files under the served folder, loaded at start; tests replace or delete them over the control API.
final class FileStore: Sendable {
    private let files: Mutex<[String: StoredFile]>

    /// Loads every regular file below `root`, keyed by its path relative to it (`rates/daily.xml`).
    ///
    /// Walks the tree with POSIX calls: Foundation's URL resource values are not safe to use from
    /// several threads at once on Linux, and tests start many upstreams in parallel.
    init(root: URL) throws {
        var loaded: [String: StoredFile] = [:]
        try Self.walk(root.path, relative: "") { relative, path, modified in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            loaded[relative] = StoredFile(
                bytes: Array(data), lastModified: modified, contentType: Self.contentType(of: relative))
        }
        files = Mutex(loaded)
    }

    private static func walk(
        _ directory: String, relative: String, _ visit: (_ relative: String, _ path: String, _ modified: Int) throws -> Void
    ) throws {
        guard let handle = opendir(directory) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory])
        }
        defer { closedir(handle) }
        var names: [String] = []
        // nil only for a computed property; 19 is glibc's offset on x86_64 and aarch64.
        let nameOffset = MemoryLayout<dirent>.offset(of: \.d_name) ?? 19
        while let entry = readdir(handle) {
            // Through the pointer, up to the name's NUL: `entry.pointee` would copy a whole `struct
            // dirent`, past the end of a shorter record at the end of glibc's buffer.
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name != ".", name != ".." { names.append(name) }
        }
        for name in names.sorted() {
            let path = directory + "/" + name
            let key = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try walk(path, relative: key, visit)
            case S_IFREG: try visit(key, path, Int(info.st_mtim.tv_sec))
            default: continue
            }
        }
    }

    subscript(path: String) -> StoredFile? {
        files.withLock { $0[path] }
    }

    var paths: [String] {
        files.withLock { $0.keys.sorted() }
    }

    /// Replaces (or adds) a file; its `Last-Modified` moves forward by at least a second so dates compare.
    func replace(_ path: String, with bytes: [UInt8], now: Int) -> StoredFile {
        files.withLock { files in
            let previous = files[path]?.lastModified ?? 0
            let file = StoredFile(bytes: bytes, lastModified: max(now, previous + 1), contentType: Self.contentType(of: path))
            files[path] = file
            return file
        }
    }

    func remove(_ path: String) -> Bool {
        files.withLock { $0.removeValue(forKey: path) != nil }
    }

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last?.lowercased() {
        case "xml": "application/xml"
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "md": "text/markdown; charset=utf-8"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
