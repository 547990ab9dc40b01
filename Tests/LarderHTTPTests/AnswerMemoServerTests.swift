import Foundation
import LarderHTTP
import LarderTesting
import Logging
import Synchronization
import Testing

/// The server side of the answer memo (`AnswerMemo`), with a route that attaches one and counts how
/// often it runs: what is repeated, for how long, and what always runs the route.
@Suite("HTTP server: the answer memo", .serialized)
struct AnswerMemoServerTests {
    /// A route whose answers say which target they answered, and may be repeated until `validUntil`.
    final class MemoRoute: Sendable {
        let runs = Atomic<Int>(0)
        let hits = Hits()
        let changes = AnswerChanges()
        let validUntil: Int64
        /// Built per target once: the same prepared answer each time, as a snapshot's are.
        private let answers = Mutex<[String: (PreparedResponse, PreparedResponse)]>([:])

        init(validFor seconds: Int64) {
            validUntil = (Int64(Date().timeIntervalSince1970) + seconds) * 1_000_000_000
        }

        final class Hits: AnswerMemoHit {
            let count = Atomic<Int>(0)
            func recordHit() { count.add(1, ordering: .relaxed) }
        }

        static let etag = #""memo-1""#

        func answer(_ request: Request) -> Response {
            runs.add(1, ordering: .relaxed)
            let generation = changes.current
            let which = request.query["q"] ?? "none"
            let (ok, notModified) = answers.withLock { answers in
                if let made = answers[which] { return made }
                let headers: HTTPHeaders = ["ETag": Self.etag, "Content-Type": "text/plain"]
                let made = (PreparedResponse(headers: headers, body: SharedBytes(Array("answer for \(which)\n".utf8))),
                            PreparedResponse(status: .notModified, headers: headers, body: SharedBytes([])))
                answers[which] = made
                return made
            }
            let notModifiedNow = request.headers["If-None-Match"] == Self.etag
            let memo = AnswerMemo(
                ok: ok, notModified: notModified, etag: Self.etag, changes: changes, generation: generation,
                validUntil: validUntil, hit: hits)
            return Response(prepared: notModifiedNow ? notModified : ok, memo: memo)
        }

        func register(_ router: inout Router) {
            router.add(.get, "/memo", reads: ["If-None-Match"], readsQuery: true, .immediate { self.answer($0) })
        }
    }

    func fetch(_ port: Int, _ target: String, _ headers: [(String, String)] = [], count: Int = 1) async throws -> [TestResponse] {
        try await onThread {
            try (0..<count).map { _ in try TestConnection.fetch(port: port, target, headers: headers) }
        }
    }

    @Test func aRepeatIsAnsweredWithoutTheRouteAndCountedAsItsHit() async throws {
        let route = MemoRoute(validFor: 3600)
        try await withServer(configure: { $0.threads = 1 }, routes: route.register) { server in
            let answers = try await fetch(server.port, "/memo?q=a", count: 10)
            #expect(answers.allSatisfy { $0.status == 200 && $0.text == "answer for a\n" && $0.header("ETag") == MemoRoute.etag })
            #expect(route.runs.load(ordering: .relaxed) == 1, "the route ran once; the memo answered 9")
            #expect(server.memoAnswers == 9 && route.hits.count.load(ordering: .relaxed) == 9)
            // Another target is another entry; the first is still answered as itself.
            let other = try await fetch(server.port, "/memo?q=b", count: 3)
            let first = try await fetch(server.port, "/memo?q=a")
            #expect(other.allSatisfy { $0.text == "answer for b\n" } && first[0].text == "answer for a\n")
            // The 304, for the ETag exactly or its weak form, from the memo too.
            let before = route.runs.load(ordering: .relaxed)
            let conditional = try await fetch(server.port, "/memo?q=a", [("If-None-Match", MemoRoute.etag)], count: 3)
                + (try await fetch(server.port, "/memo?q=a", [("If-None-Match", "W/" + MemoRoute.etag)]))
            #expect(conditional.allSatisfy { $0.status == 304 && $0.body.isEmpty })
            #expect(route.runs.load(ordering: .relaxed) == before)
        }
    }

    @Test func aChangeOrTheEndOfItsValidityRunsTheRouteAgain() async throws {
        let route = MemoRoute(validFor: 3600)
        try await withServer(configure: { $0.threads = 1 }, routes: route.register) { server in
            _ = try await fetch(server.port, "/memo?q=a", count: 3)
            route.changes.changed()
            _ = try await fetch(server.port, "/memo?q=a", count: 3)
            #expect(route.runs.load(ordering: .relaxed) == 2, "once before the change, once after; the rest repeated")
        }
        let expired = MemoRoute(validFor: -1)
        try await withServer(configure: { $0.threads = 1 }, routes: expired.register) { server in
            let answers = try await fetch(server.port, "/memo?q=a", count: 4)
            #expect(answers.allSatisfy { $0.text == "answer for a\n" })
            #expect(expired.runs.load(ordering: .relaxed) == 4 && server.memoAnswers == 0, "a past instant is never repeated")
        }
    }

    @Test func whatTheMemoDoesNotJudgeRunsTheRoute() async throws {
        let route = MemoRoute(validFor: 3600)
        try await withServer(configure: { $0.threads = 1 }, routes: route.register) { server in
            _ = try await fetch(server.port, "/memo?q=a")
            let cases: [(String, [(String, String)])] = [
                ("/memo?q=a", [("X-Other", "1")]),
                ("/memo?q=a", [("Range", "bytes=0-1")]),
                ("/memo?q=a", [("If-None-Match", #""other""#)]),
                ("/memo?q=a", [("If-None-Match", MemoRoute.etag), ("If-None-Match", MemoRoute.etag)]),
                ("/memo?q=a", [("Content-Length", "0")]),
                ("/memo?q=" + String(repeating: "a", count: 600), []),
            ]
            for (target, headers) in cases {
                let before = route.runs.load(ordering: .relaxed)
                let answers = try await fetch(server.port, target, headers, count: 2)
                #expect(answers.allSatisfy { $0.status == 200 || $0.status == 304 }, "\(headers)")
                #expect(route.runs.load(ordering: .relaxed) == before + 2, "\(target.prefix(20)) \(headers)")
            }
            let before = route.runs.load(ordering: .relaxed)
            let heads = try await onThread { try (0..<2).map { _ in try TestConnection(port: server.port).request("HEAD", "/memo?q=a") } }
            #expect(heads.allSatisfy { $0.status == 200 && $0.header("Content-Length") == "13" })
            #expect(route.runs.load(ordering: .relaxed) == before + 2, "HEAD runs the route")
            // A Host of its own is an entry of its own: the route once, then repeated for it.
            let hosts = try await fetch(server.port, "/memo?q=a", [("Host", "localhost")], count: 3)
            #expect(hosts.allSatisfy { $0.text == "answer for a\n" })
            #expect(route.runs.load(ordering: .relaxed) == before + 3)
        }
    }

    @Test func anAccessLogOrTheSettingTurnsItOff() async throws {
        let route = MemoRoute(validFor: 3600)
        var logger = Logger(label: "larder.test") { _ in DroppedLines() }
        logger.logLevel = .debug
        for (logging, memo) in [(true, true), (false, false)] {
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.threads = 1
            configuration.answerMemo = memo
            var router = Router()
            route.register(&router)
            let server = HTTPServer(configuration: configuration, router: router, logger: logging ? logger : quietLogger)
            try await onThread { try server.start() }
            try await withCleanup {
                let before = route.runs.load(ordering: .relaxed)
                _ = try await fetch(server.port, "/memo?q=a", count: 3)
                #expect(route.runs.load(ordering: .relaxed) == before + 3 && server.memoAnswers == 0, "logging \(logging) memo \(memo): runs \(route.runs.load(ordering: .relaxed) - before) memo \(server.memoAnswers)")
            } cleanup: {
                await server.stop()
            }
        }
    }
}

/// Takes every level (so the server's access log is on) and keeps nothing.
private struct DroppedLines: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}
