import Foundation
import Glibc
import LarderHTTP
import LarderServing
import LarderTesting
import Logging

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
            contentType: contentType, etag: "\"etag-\(name)-1\"", lastModified: FileServer.lastModified)
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

/// An in-process server on a loopback ephemeral port answering `/documents/:name` with `FileAnswer`,
/// the way the documents route will: open without following symlinks, `fstat`, answer.
enum FileServer {
    static let lastModified = 1_767_225_600  // 2026-01-01T00:00:00Z
    /// Fetched 100 s before `now` with a 900 s TTL: `max-age=800`, `Age: 100`.
    static let state = CacheState(
        fetchedAt: Date(timeIntervalSince1970: 1_767_300_000), expiresAt: Date(timeIntervalSince1970: 1_767_300_900),
        now: Date(timeIntervalSince1970: 1_767_300_100), staleDetail: nil)

    static func run<T: Sendable>(
        _ files: [ServedFile], _ body: @escaping @Sendable (_ port: Int) throws -> T
    ) async throws -> T {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        var router = Router()
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
        let server = HTTPServer(
            configuration: configuration, router: router,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        let port = server.port
        do {
            let result = try await onThread { try body(port) }
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Bytes that do not repeat in any short period, so an off-by-one slice never compares equal.
    static func pseudoRandomBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = 0
            while index < count {
                // xorshift64: eight bytes per step keeps 50 MiB quick even in a debug build.
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                var word = state
                for _ in 0..<min(8, count - index) {
                    buffer[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
            }
            initialized = count
        }
    }
}

extension TestResponse {
    /// True when the body equals `expected` byte for byte (memcmp: fast for 50 MiB).
    func bodyEquals(_ expected: some Collection<UInt8>) -> Bool {
        let expected = Array(expected)
        guard body.count == expected.count else { return false }
        return body.withUnsafeBytes { a in
            expected.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }
}
