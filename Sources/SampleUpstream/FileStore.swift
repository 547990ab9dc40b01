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
    init(root: URL) throws {
        var loaded: [String: StoredFile] = [:]
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        let keys: [URLResourceKey] = [.isRegularFileKey, .contentModificationDateKey]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys)
        while let url = enumerator?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: Set(keys))
            guard values.isRegularFile == true else { continue }
            let relative = String(url.resolvingSymlinksInPath().path.dropFirst(root.path.count + 1))
            let modified = Int(values.contentModificationDate?.timeIntervalSince1970 ?? 0)
            loaded[relative] = StoredFile(
                bytes: Array(try Data(contentsOf: url)), lastModified: modified, contentType: Self.contentType(of: relative))
        }
        files = Mutex(loaded)
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
