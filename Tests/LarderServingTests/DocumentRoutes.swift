import Foundation
import Glibc
import LarderHTTP
import LarderServing
import LarderTesting

/// A document a test serves: a temporary file and the representation its answers declare.
struct ServedFile: Sendable {
    let name: String
    let path: String
    let representation: FileRepresentation
    let bytes: [UInt8]

    /// Writes `bytes` to a fresh file under /tmp.
    init(name: String, bytes: [UInt8], contentType: String = "text/plain; charset=utf-8") throws {
        self.name = name
        path = NSTemporaryDirectory() + "larder-serving-\(UUID().uuidString)-\(name)"
        self.bytes = bytes
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        representation = FileRepresentation(
            contentType: contentType, etag: "\"etag-\(name)-1\"", lastModified: DocumentRoutes.lastModified)
    }

    func remove() {
        unlink(path)
    }

    /// How many descriptors of this process are open on this file right now.
    var openDescriptors: Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.count { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }
    }
}

/// `/documents/:name` answered with `FileAnswer` the way the documents route does (open without
/// following symlinks, `fstat`, answer), and `/mapped/:name` from the same files mapped once.
enum DocumentRoutes {
    static let lastModified = 1_767_225_600  // 2026-01-01T00:00:00Z
    /// Fetched 100 s before `now` with a 900 s TTL: `max-age=800`, `Age: 100`.
    static let state = CacheState(
        fetchedAt: Date(timeIntervalSince1970: 1_767_300_000), expiresAt: Date(timeIntervalSince1970: 1_767_300_900),
        now: Date(timeIntervalSince1970: 1_767_300_100), staleDetail: nil)

    /// Adds both routes for `files` to a router.
    static func routes(for files: [ServedFile]) -> (inout Router) -> Void {
        { router in
            let byName = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) })
            router.add(.get, "/documents/:name", .immediate { request in
                guard let file = request.parameters["name"].flatMap({ byName[$0] }) else {
                    return HTTPError.notFound().response
                }
                let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                var info = stat()
                guard descriptor >= 0 else { return HTTPError.notFound().response }
                guard fstat(descriptor, &info) == 0 else {
                    close(descriptor)
                    return HTTPError.notFound().response
                }
                return FileAnswer.response(
                    for: request, descriptor: descriptor, size: UInt64(info.st_size),
                    representation: file.representation, state: state)
            })
            // The same files mapped once and shared (how the mirror sends large documents).
            let mapped = Dictionary(uniqueKeysWithValues: files.compactMap { file -> (String, SharedBytes)? in
                let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
                defer { close(descriptor) }
                return SharedBytes(mapping: descriptor, count: file.bytes.count).map { (file.name, $0) }
            })
            router.add(.get, "/mapped/:name", .immediate { request in
                guard let name = request.parameters["name"], let file = byName[name], let bytes = mapped[name] else {
                    return HTTPError.notFound().response
                }
                return FileAnswer.response(for: request, source: .mapped(bytes), representation: file.representation, state: state)
            })
        }
    }
}

/// Runs blocking socket work `body` on its own thread against a server answering `files`.
func serving<T: Sendable>(_ files: [ServedFile], _ body: @escaping @Sendable (_ port: Int) throws -> T) async throws -> T {
    try await withServer(routes: DocumentRoutes.routes(for: files)) { server in
        let port = server.port
        return try await onThread { try body(port) }
    }
}
