import Foundation
import LarderHTTP
import LarderServing
import LarderTesting
import Testing

@Suite("FileAnswer: large files and descriptor ownership", .serialized, .timeLimit(.minutes(2)))
struct FileAnswerResourceTests {
    @Test func fiftyMebibytesAreServedByteExactAndRangedAtTheEnd() async throws {
        let size = 50 * 1024 * 1024
        // 50 MiB made, written and compared on threads of their own, off the cooperative pool (`onThread`).
        let bytes = try await onThread { pseudoRandomBytes(size) }
        let file = try await onThread { try ServedFile(name: "big.bin", bytes: bytes, contentType: "application/octet-stream") }
        defer { file.remove() }
        let (whole, tail, end, middle) = try await serving([file]) { port in
            let connection = try TestConnection(port: port, timeout: .seconds(30))
            let whole = try connection.request("GET", "/documents/big.bin")
            let tail = try connection.request("GET", "/documents/big.bin", headers: [("Range", "bytes=-4096")])
            let end = try connection.request("GET", "/documents/big.bin", headers: [("Range", "bytes=52428000-")])
            let middle = try connection.request(
                "GET", "/documents/big.bin", headers: [("Range", "bytes=1048575-3145728")])
            return (whole, tail, end, middle)
        }
        #expect(whole.status == 200)
        #expect(whole.header("Content-Length") == String(size))
        #expect(try await onThread { whole.bodyEquals(bytes) }, "all 50 MiB, byte for byte")
        #expect(tail.status == 206)
        #expect(tail.header("Content-Range") == "bytes \(size - 4096)-\(size - 1)/\(size)")
        #expect(tail.bodyEquals(bytes[(size - 4096)...]))
        #expect(end.status == 206)
        #expect(end.header("Content-Range") == "bytes 52428000-52428799/52428800")
        #expect(end.bodyEquals(bytes[52_428_000...]))
        #expect(middle.status == 206)
        #expect(middle.bodyEquals(bytes[1_048_575...3_145_728]))
    }

    /// Counts descriptors open on this test's own file (via /proc/self/fd), not the process's total,
    /// so tests running in parallel elsewhere cannot disturb the count.
    @Test func descriptorsAreClosedWhateverTheAnswer() async throws {
        let file = try ServedFile(name: "fd.txt", bytes: pseudoRandomBytes(4096, seed: 7))
        defer { file.remove() }
        let etag = file.representation.etag
        let kinds: [(label: String, method: String, headers: [(String, String)], status: Int)] = [
            ("304", "GET", [("If-None-Match", etag)], 304),
            ("416", "GET", [("Range", "bytes=4096-")], 416),
            ("416 HEAD", "HEAD", [("Range", "bytes=-0")], 416),
            ("206", "GET", [("Range", "bytes=10-20")], 206),
            ("200 HEAD", "HEAD", [], 200),
            ("200", "GET", [], 200),
        ]
        let report = try await withServer(routes: DocumentRoutes.routes(for: [file])) { server in
            let port = server.port
            var report: [String] = []
            for kind in kinds {
                report += try await onThread {
                    let connection = try TestConnection(port: port)
                    return try (0..<200).compactMap { _ in
                        let response = try connection.request(kind.method, "/documents/fd.txt", headers: kind.headers)
                        return response.status == kind.status ? nil : "\(kind.label): got \(response.status)"
                    }
                }
                // 304 and 416 close before answering; a sent file is closed when libmicrohttpd
                // destroys the response, just after the last byte: allow it a moment.
                if try await !eventually({ file.openDescriptors == 0 }) {
                    report.append("\(kind.label): \(file.openDescriptors) descriptors still open after 200 answers")
                }
            }
            return report
        }
        #expect(report.isEmpty, "\(report)")
        #expect(file.openDescriptors == 0)
    }
}
