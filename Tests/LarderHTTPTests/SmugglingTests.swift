import LarderHTTP
import LarderTesting
import Synchronization
import Testing

/// How often the routes the attempts aim at ran.
private final class Hits: Sendable {
    let target = Atomic<Int>(0)
    let smuggled = Atomic<Int>(0)

    func routes(_ router: inout Router) {
        router.add(.post, "/target", .immediate { _ in
            self.target.add(1, ordering: .relaxed)
            return Response(body: .string("target"))
        })
        router.add(.get, "/smuggled", .immediate { _ in
            self.smuggled.add(1, ordering: .relaxed)
            return Response(body: .string("smuggled"))
        })
        router.add(.get, "/alive", .immediate { _ in Response(body: .string("alive")) })
    }
}

@Suite("Request smuggling (RFC 9112): one refusal, the connection closed, no handler run")
struct SmugglingTests {
    static let smuggled = SmugglingAttempt.hidden("/smuggled")

    /// Per form (`SmugglingForm` says which RFC rule each breaks), each variant on its own
    /// connection: one answer with its status (JSON when Larder answers), the connection closed,
    /// nothing answered after it, and neither route ever run.
    @Test(arguments: SmugglingForm.allCases)
    func refusedOnceThenClosed(_ form: SmugglingForm) async throws {
        let hits = Hits()
        try await withServer(routes: hits.routes) { server in
            let port = server.port
            for attempt in form.attempts(target: "/target", smuggled: Self.smuggled) {
                let exchange = try await onThread { try TestConnection.exchange(port: port, attempt.bytes) }
                let mismatches = attempt.mismatches(exchange)
                #expect(mismatches.isEmpty, "\(attempt): \(mismatches)")
            }
            let alive = try await server.get("/alive")
            #expect(alive.status == 200)
        }
        #expect(hits.target.load(ordering: .relaxed) == 0)
        #expect(hits.smuggled.load(ordering: .relaxed) == 0)
    }

    /// The refusals are aimed: a well-formed pipelined pair, and a chunked body, are still served.
    @Test func wellFormedPipelinedRequestsAreBothAnswered() async throws {
        let hits = Hits()
        try await withServer(routes: hits.routes) { server in
            let port = server.port
            let pair = "POST /target HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                + Self.smuggled
            let (first, second) = try await onThread {
                let connection = try TestConnection(port: port)
                try connection.send(pair)
                return (try connection.readResponse(), try connection.readResponse())
            }
            #expect(first.text == "target")
            #expect(second.text == "smuggled")
        }
        #expect(hits.target.load(ordering: .relaxed) == 1)
        #expect(hits.smuggled.load(ordering: .relaxed) == 1)
    }
}
