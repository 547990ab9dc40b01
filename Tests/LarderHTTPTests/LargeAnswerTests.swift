import Foundation
import LarderHTTP
import LarderTesting
import Testing

/// Large answers go by sendfile, prepared ones from an answer file, corked from 64 KiB to 512 KiB: what
/// arrives must be the same bytes, and the answers after them on the same connection must come whole too.
@Suite("HTTP server: large answers, corked and sent from an answer file or a document's file")
struct LargeAnswerTests {
    static let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    @Test func largeBodiesAndSlicesOfThemArriveByteExactBetweenSmallAnswers() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("larder-large-\(UUID().uuidString)").path
        try Data(Self.body).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let bytes = SharedBytes(Self.body)
        // Other suites' Larders in this process may hold every answer file allowed: then the heap.
        #expect(bytes.isInAnswerFile || SharedBytes.answerFilesInUse >= SharedBytes.answerFileLimit,
                "a body of \(Self.body.count) bytes goes in an answer file while there is room")
        #expect(!SharedBytes(Array(Self.body.prefix(SharedBytes.answerFileThreshold - 1))).isInAnswerFile)
        #expect(bytes.array == Self.body, "the mapping reads back what was written")
        let prepared = PreparedResponse(headers: ["Content-Type": "application/octet-stream"], body: bytes)
        let routes: (inout Router) -> Void = { router in
            standardRoutes(&router)
            router.add(.get, "/whole", .immediate { _ in Response(prepared: prepared) })
            // An offset inside the file: the descriptor's sendfile starts there, not at 0.
            router.add(.get, "/slice", .immediate { _ in
                Response(headers: ["Content-Type": "application/octet-stream"], body: .slice(bytes, offset: 70_001, length: 200_000))
            })
            // A file in the corked range, as a document is sent.
            router.add(.get, "/file", .immediate { _ in
                Response(body: .file(FileRegion(descriptor: open(path, O_RDONLY), length: UInt64(Self.body.count))))
            })
        }
        try await withServer(routes: routes) { server in
            let port = server.port
            let answers = try await onThread { () -> [TestResponse] in
                // One keep-alive connection: each large answer uncorks when done, so the small one
                // after it is a whole answer of its own; then another connection.
                let connection = try TestConnection(port: port)
                return [try connection.request("GET", "/whole"), try connection.request("GET", "/hello"),
                        try connection.request("GET", "/slice"), try connection.request("GET", "/whole"),
                        try connection.request("GET", "/hello"), try TestConnection.fetch(port: port, "/slice"),
                        try connection.request("GET", "/file"), try connection.request("GET", "/hello")]
            }
            let slice = Array(Self.body[70_001..<270_001])
            #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 200, 200, 200])
            #expect(answers[0].body == Self.body && answers[3].body == Self.body && answers[6].body == Self.body)
            #expect(answers[7].text == "hello\n")
            #expect(answers[2].body == slice && answers[5].body == slice)
            #expect(answers[1].text == "hello\n" && answers[4].text == "hello\n")
            let head = try await server.request("HEAD", "/whole")
            #expect(head.header("Content-Length") == String(Self.body.count))
            #expect(head.body.isEmpty)
        }
    }

    /// Two server threads send one prepared file answer to many clients at once: with the library's
    /// sendfile-lock patch no lock is held across `sendfile()`, and every copy must still arrive whole.
    @Test func oneLargeAnswerSentByTwoThreadsToManyClientsArrivesWhole() async throws {
        let prepared = PreparedResponse(headers: ["Content-Type": "application/octet-stream"], body: SharedBytes(Self.body))
        try await withServer(configure: { $0.threads = 2 },
                             routes: { $0.add(.get, "/whole", .immediate { _ in Response(prepared: prepared) }) }) { server in
            let port = server.port
            let whole = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await onThread {
                            let connection = try TestConnection(port: port, timeout: .seconds(20))
                            return try (0..<25).count(where: { _ in
                                let answer = try connection.request("GET", "/whole")
                                return answer.status == 200 && answer.body == Self.body
                            })
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(whole == 8 * 25)
        }
    }

    /// `larder serve` keeps large bodies in unnamed files in its cache directory (sendfile reads the page
    /// cache's large folios in batches, a memory file's pages one by one): the same bytes go out.
    @Test func largeBodiesGoFromAnUnnamedFileInTheDirectorySet() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("larder-bodies-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Set for the whole process: once it is removed, later bodies go to memfds again.
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(SharedBytes.keepLargeBodies(in: directory))
        #expect(!SharedBytes.keepLargeBodies(in: directory + "/missing"), "a directory that cannot be opened is refused")
        let bytes = SharedBytes(Self.body)
        try #require(bytes.isInAnswerFile || SharedBytes.answerFilesInUse >= SharedBytes.answerFileLimit)
        if bytes.isInAnswerFile {
            let files = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)).map { (fd, $0) }
            }
            let unnamed = files.filter { $0.1.hasPrefix(directory + "/#") && $0.1.hasSuffix("(deleted)") }
            #expect(!unnamed.isEmpty, "an unnamed file (O_TMPFILE) in the directory: \(files.filter { $0.1.contains("larder") })")
            // Opened without access times, which every sendfile() would otherwise check (O_NOATIME, octal 1000000).
            for (fd, _) in unnamed {
                let info = try String(contentsOfFile: "/proc/self/fdinfo/" + fd, encoding: .utf8)
                let flags = info.split(separator: "\n").first { $0.hasPrefix("flags:") }
                    .flatMap { Int($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0
                #expect(flags & 0o1000000 != 0, "O_NOATIME in the unnamed file's flags (\(String(flags, radix: 8)))")
            }
        }
        let prepared = PreparedResponse(headers: ["Content-Type": "application/octet-stream"], body: bytes)
        try await withServer(routes: { $0.add(.get, "/whole", .immediate { _ in Response(prepared: prepared) }) }) { server in
            let port = server.port
            let answers = try await onThread {
                let connection = try TestConnection(port: port)
                return [try connection.request("GET", "/whole"), try connection.request("GET", "/whole")]
            }
            #expect(answers.allSatisfy { $0.status == 200 && $0.body == Self.body })
        }
    }
}
