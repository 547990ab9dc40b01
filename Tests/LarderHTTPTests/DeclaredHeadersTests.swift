import LarderHTTP
import LarderTesting
import Testing

/// A lean route that reads `X-Undeclared` without declaring it: the lean path never carries it.
private func sloppyRoute(_ router: inout Router) {
    router.add(.get, "/sloppy", reads: ["If-None-Match"], .immediate { request in
        Response(body: .string(request.headers["X-Undeclared"] ?? "absent"))
    })
    router.add(.get, "/tidy", reads: ["If-None-Match", "Range", "If-Range"], .immediate { request in
        Response(body: .string(request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ";")))
    })
}

@Suite("Lean routes: a handler reads only the headers it declared")
struct DeclaredHeadersTests {
    #if DEBUG
    @Test func anUndeclaredHeaderReadOverLoopbackTrapsInDebugBuilds() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try await withServer(routes: sloppyRoute) { server in
                let port = server.port
                _ = try? await onThread { try TestConnection.fetch(port: port, "/sloppy", headers: [("X-Undeclared", "1")]) }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("GET /sloppy read the header X-Undeclared"), "the trap names the route and the header")
    }

    @Test func anUndeclaredHeaderReadInProcessTrapsToo() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            sloppyRoute(&router)
            _ = await router.answer(Request(method: .get, rawPath: "/sloppy", segments: ["sloppy"], headers: ["X-Undeclared": "1"]))
        }
    }
    #endif

    @Test func theUsualWayCarriesEveryHeaderAndDoesNotTrap() async throws {
        try await withServer(routes: sloppyRoute) { server in
            let port = server.port
            let answer = try await onThread {
                try TestConnection.fetch(port: port, "/sloppy?a=1", headers: [("X-Undeclared", "1")])
            }
            #expect(answer.status == 200 && answer.text == "1")
        }
    }

    @Test func theInProcessRouterCarriesWhatTheServerCarries() async throws {
        var router = Router()
        sloppyRoute(&router)
        let cases: [[(String, String)]] = [
            [("If-None-Match", "\"a\""), ("X-Other", "y"), ("If-Range", "\"b\"")],
            [("Range", "bytes=0-1"), ("If-Range", "\"b\""), ("X-Other", "y")],
        ]
        try await withServer(routes: sloppyRoute) { server in
            let port = server.port
            for headers in cases {
                let overLoopback = try await onThread { try TestConnection.fetch(port: port, "/tidy", headers: headers) }
                let inProcess = await router.answer(Request(
                    method: .get, rawPath: "/tidy", segments: ["tidy"],
                    headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) })))
                guard case .bytes(let body) = inProcess.body else {
                    Issue.record("a string body is sent as bytes")
                    continue
                }
                #expect(String(decoding: body.array, as: UTF8.self) == overLoopback.text, "\(headers)")
            }
        }
    }
}
