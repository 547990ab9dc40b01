import LarderHTTP
import LarderTesting
import Testing

@Suite("Lean routes: a handler reads only the headers it declared")
struct DeclaredHeadersTests {
    #if DEBUG
    @Test func anUndeclaredHeaderReadOverLoopbackTrapsInDebugBuilds() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try await withServer(routes: undeclaredHeaderRoutes) { server in
                let port = server.port
                _ = try? await onThread { try TestConnection.fetch(port: port, "/sloppy", headers: [("X-Undeclared", "1")]) }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("GET /sloppy read the header X-Undeclared"), "the trap names the route and the header")
    }
    #endif

    @Test func theUsualWayCarriesEveryHeaderAndDoesNotTrap() async throws {
        try await withServer(routes: undeclaredHeaderRoutes) { server in
            let port = server.port
            let answer = try await onThread {
                try TestConnection.fetch(port: port, "/sloppy?a=1", headers: [("X-Undeclared", "1")])
            }
            #expect(answer.status == 200 && answer.text == "1")
        }
    }
}
