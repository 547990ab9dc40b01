import Foundation
import LarderHTTP
import LarderServing
import LarderTesting
import Testing

@Suite("FileAnswer: documents over loopback with ranges, validators and sendfile", .serialized, .timeLimit(.minutes(2)))
struct FileAnswerTests {
    static let size = 1000
    static let small = pseudoRandomBytes(size, seed: 42)
    static let etag = "\"etag-a.txt-1\""
    static let lastModified = HTTPDate.format(secondsSince1970: DocumentRoutes.lastModified)

    /// Runs `body` against a server serving `a.txt` (1000 bytes).
    private func withSmallFile<T: Sendable>(_ body: @escaping @Sendable (Int, ServedFile) throws -> T) async throws -> T {
        let file = try ServedFile(name: "a.txt", bytes: Self.small)
        defer { file.remove() }
        return try await serving([file]) { port in try body(port, file) }
    }

    private static func expectCommonHeaders(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.header("ETag") == etag, sourceLocation: sourceLocation)
        #expect(response.header("Last-Modified") == lastModified, sourceLocation: sourceLocation)
        #expect(response.header("Age") == "100", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Status") == "Larder; hit; ttl=800", sourceLocation: sourceLocation)
        #expect(response.header("Accept-Ranges") == "bytes", sourceLocation: sourceLocation)
        #expect(response.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
    }

    @Test func theWholeFileIsServedByteExact() async throws {
        let response = try await withSmallFile { port, _ in try TestConnection.fetch(port: port, "/documents/a.txt") }
        #expect(response.status == 200)
        #expect(response.bodyEquals(Self.small))
        #expect(response.header("Content-Length") == "1000")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.header("Cache-Control") == "public, max-age=800")
        #expect(response.header("Content-Range") == nil)
        #expect(response.header("Content-Security-Policy") == nil)
        Self.expectCommonHeaders(response)
    }

    @Test(arguments: [
        ("bytes=0-499", 0, 499), ("bytes=500-", 500, 999), ("bytes=-300", 700, 999), ("bytes=990-5000", 990, 999),
        ("bytes=0-0", 0, 0), ("bytes=-1", 999, 999), ("bytes=-99999999999999999999999", 0, 999),
    ])
    func eachRangeFormAnswers206(_ range: String, _ first: Int, _ last: Int) async throws {
        let response = try await withSmallFile { port, _ in
            try TestConnection.fetch(port: port, "/documents/a.txt", headers: [("Range", range)])
        }
        #expect(response.status == 206)
        #expect(response.bodyEquals(Self.small[first...last]))
        #expect(response.header("Content-Range") == "bytes \(first)-\(last)/1000")
        #expect(response.header("Content-Length") == String(last - first + 1))
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        Self.expectCommonHeaders(response)
    }

    @Test func aMappedFileAnswersExactlyAsItsDescriptorDoes() async throws {
        let (full, part, suffix, unsatisfiable, notModified, head) = try await withSmallFile { port, _ in
            (try TestConnection.fetch(port: port, "/mapped/a.txt"),
             try TestConnection.fetch(port: port, "/mapped/a.txt", headers: [("Range", "bytes=100-199")]),
             try TestConnection.fetch(port: port, "/mapped/a.txt", headers: [("Range", "bytes=-1")]),
             try TestConnection.fetch(port: port, "/mapped/a.txt", headers: [("Range", "bytes=1000-")]),
             try TestConnection.fetch(port: port, "/mapped/a.txt", headers: [("If-None-Match", Self.etag)]),
             try TestConnection(port: port).request("HEAD", "/mapped/a.txt"))
        }
        #expect(full.status == 200 && full.bodyEquals(Self.small))
        #expect(full.header("Content-Length") == "1000")
        Self.expectCommonHeaders(full)
        #expect(part.status == 206 && part.bodyEquals(Self.small[100...199]))
        #expect(part.header("Content-Range") == "bytes 100-199/1000")
        #expect(suffix.status == 206 && suffix.bodyEquals(Self.small[999...999]))
        #expect(unsatisfiable.status == 416 && unsatisfiable.header("Content-Range") == "bytes */1000")
        #expect(notModified.status == 304 && notModified.body.isEmpty)
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "1000")
    }

    @Test(arguments: ["bytes=1000-", "bytes=5000-6000", "bytes=-0", "bytes=18446744073709551616-"])
    func anUnsatisfiableRangeAnswers416InJSON(_ range: String) async throws {
        let response = try await withSmallFile { port, _ in
            try TestConnection.fetch(port: port, "/documents/a.txt", headers: [("Range", range)])
        }
        #expect(response.status == 416)
        #expect(response.header("Content-Range") == "bytes */1000")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.errorCode == "range_not_satisfiable")
        Self.expectCommonHeaders(response)
    }

    @Test(arguments: ["bytes=0-1,5-6", "items=0-9", "bytes=9-1", "bytes=x"])
    func anIgnorableRangeServesTheWholeFile(_ range: String) async throws {
        let response = try await withSmallFile { port, _ in
            try TestConnection.fetch(port: port, "/documents/a.txt", headers: [("Range", range)])
        }
        #expect(response.status == 200)
        #expect(response.bodyEquals(Self.small))
        #expect(response.header("Content-Range") == nil)
    }

    @Test func twoRangeFieldsAreTwoRangesAndIgnored() async throws {
        let response = try await withSmallFile { port, _ in
            try TestConnection.fetch(port: port, "/documents/a.txt", headers: [("Range", "bytes=0-1"), ("Range", "bytes=5-6")])
        }
        #expect(response.status == 200)
        #expect(response.bodyEquals(Self.small))
    }

    @Test func ifRangeDecidesBetweenThePartAndTheWhole() async throws {
        let other = HTTPDate.format(secondsSince1970: DocumentRoutes.lastModified - 1)
        let answers = try await withSmallFile { port, _ in
            try [Self.etag, Self.lastModified, "\"other\"", "W/\(Self.etag)", other, "garbage"].map { validator in
                try TestConnection.fetch(
                    port: port, "/documents/a.txt", headers: [("Range", "bytes=10-19"), ("If-Range", validator)])
            }
        }
        let statuses = answers.map(\.status)
        #expect(statuses == [206, 206, 200, 200, 200, 200], "strong ETag and exact date match; weak, other, junk do not")
        #expect(answers[0].bodyEquals(Self.small[10...19]))
        #expect(answers[1].bodyEquals(Self.small[10...19]))
        for whole in answers[2...] {
            #expect(whole.bodyEquals(Self.small))
            #expect(whole.header("Content-Range") == nil)
        }
    }

    @Test func validatorsAnswer304WithTheSameValidators() async throws {
        let answers = try await withSmallFile { port, _ in
            let connection = try TestConnection(port: port)
            return try [
                [("If-None-Match", Self.etag)],
                [("If-None-Match", "\"x\", W/\(Self.etag)")],
                [("If-Modified-Since", Self.lastModified)],
                [("If-None-Match", Self.etag), ("Range", "bytes=0-9")],
                [("If-None-Match", Self.etag), ("Range", "bytes=5000-")],
                // Followed on the same connection by a 200: a 304 that sent a body would garble it.
                [("If-None-Match", "\"other\""), ("If-Modified-Since", Self.lastModified)],
            ].map { try connection.request("GET", "/documents/a.txt", headers: $0) }
        }
        #expect(answers.map(\.status) == [304, 304, 304, 304, 304, 200], "If-None-Match wins over the date and Range")
        for answer in answers.dropLast() {
            #expect(answer.body.isEmpty)
            #expect(answer.header("Content-Type") == nil)
            #expect(answer.header("Cache-Control") == "public, max-age=800")
            Self.expectCommonHeaders(answer)
        }
        #expect(answers.last?.bodyEquals(Self.small) == true)
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        let (head, headRange, headBad, after) = try await withSmallFile { port, _ in
            let connection = try TestConnection(port: port)
            let head = try connection.request("HEAD", "/documents/a.txt")
            let headRange = try connection.request("HEAD", "/documents/a.txt", headers: [("Range", "bytes=100-199")])
            let headBad = try connection.request("HEAD", "/documents/a.txt", headers: [("Range", "bytes=1000-")])
            // Any body bytes sent after a HEAD would be read as the start of this response.
            let after = try connection.request("GET", "/documents/a.txt", headers: [("Range", "bytes=0-3")])
            return (head, headRange, headBad, after)
        }
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "1000")
        #expect(head.header("Content-Type") == "text/plain; charset=utf-8")
        Self.expectCommonHeaders(head)
        #expect(headRange.status == 206)
        #expect(headRange.header("Content-Range") == "bytes 100-199/1000")
        #expect(headRange.header("Content-Length") == "100")
        Self.expectCommonHeaders(headRange)
        #expect(headBad.status == 416)
        #expect(headBad.header("Content-Range") == "bytes */1000")
        #expect(after.status == 206)
        #expect(after.bodyEquals(Self.small[0...3]))
    }

    @Test func anEmptyFileHasNoRanges() async throws {
        let file = try ServedFile(name: "empty.txt", bytes: [])
        defer { file.remove() }
        let answers = try await serving([file]) { port in
            try [[], [("Range", "bytes=0-")], [("Range", "bytes=-5")]].map {
                try TestConnection.fetch(port: port, "/documents/empty.txt", headers: $0)
            }
        }
        #expect(answers.map(\.status) == [200, 416, 200])
        #expect(answers[0].header("Content-Length") == "0")
        #expect(answers[1].header("Content-Range") == "bytes */0")
        #expect(answers.allSatisfy { $0.header("ETag") == "\"etag-empty.txt-1\"" })
    }

    @Test func xmlIsServedInTheScriptSandbox() async throws {
        let file = try ServedFile(name: "a.xml", bytes: Array("<a/>".utf8), contentType: "application/xml")
        defer { file.remove() }
        let response = try await serving([file]) { port in try TestConnection.fetch(port: port, "/documents/a.xml") }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/xml")
        #expect(response.header("Content-Security-Policy") == "sandbox")
    }
}
