import LarderFuzzing
import LarderHTTP
import LarderTesting
import Testing

/// The fuzz pipelines' in-process answer (`Router.answer`) takes the lean path and its checks as a
/// request read by the server does.
@Suite("In-process answers: the lean path and its checks")
struct InProcessAnswerTests {
    #if DEBUG
    @Test func anUndeclaredHeaderReadInProcessTraps() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            undeclaredHeaderRoutes(&router)
            _ = await router.answer(Request(method: .get, rawPath: "/sloppy", segments: ["sloppy"], headers: ["X-Undeclared": "1"]))
        }
    }
    #endif

    @Test func theInProcessRouterCarriesWhatTheServerCarries() async throws {
        var router = Router()
        undeclaredHeaderRoutes(&router)
        let cases: [[(String, String)]] = [
            [("If-None-Match", "\"a\""), ("X-Other", "y"), ("If-Range", "\"b\"")],
            [("Range", "bytes=0-1"), ("If-Range", "\"b\""), ("X-Other", "y")],
        ]
        try await withServer(routes: undeclaredHeaderRoutes) { server in
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
