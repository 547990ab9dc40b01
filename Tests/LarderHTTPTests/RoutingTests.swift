import LarderHTTP
import LarderTesting
import Testing

@Suite("Routing over real HTTP")
struct RoutingTests {
    @Test func answersRoutesWithParameters() async throws {
        try await withServer(routes: standardRoutes) { server in
            let port = server.port
            #expect(port > 0)
            let (hello, item, rest) = try await onThread {
                (try TestConnection.fetch(port: port, "/hello"),
                 try TestConnection.fetch(port: port, "/items/42"),
                 try TestConnection.fetch(port: port, "/files/a/b/c.txt"))
            }
            #expect(hello.status == 200)
            #expect(hello.text == "hello\n")
            #expect(hello.header("Content-Type") == "text/plain")
            #expect(item.text == "42")
            #expect(rest.text == "a/b/c.txt")
        }
    }

    @Test func unknownPathIsJSON404() async throws {
        try await withServer(routes: standardRoutes) { server in
            let port = server.port
            let response = try await onThread { try TestConnection.fetch(port: port, "/nope") }
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.errorCode == "not_found")
        }
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        try await withServer(routes: standardRoutes) { server in
            let port = server.port
            let (post, get) = try await onThread {
                (try TestConnection.fetch(port: port, "POST", "/hello", body: Array("x".utf8)),
                 try TestConnection.fetch(port: port, "DELETE", "/echo"))
            }
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD")
            #expect(post.errorCode == "method_not_allowed")
            #expect(get.status == 405)
            #expect(get.header("Allow") == "POST")
        }
    }

    @Test func headIsGetWithoutBody() async throws {
        try await withServer(routes: standardRoutes) { server in
            let port = server.port
            let (head, next) = try await onThread {
                let connection = try TestConnection(port: port)
                let head = try connection.request("HEAD", "/hello")
                // Had a body followed the HEAD answer, this second response would not parse.
                let next = try connection.request("GET", "/items/7")
                return (head, next)
            }
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "6")
            #expect(head.body.isEmpty)
            #expect(next.text == "7")
        }
    }

    @Test(arguments: [
        ("/items/a%2Fb", 200, "a/b"),
        ("/items/%252e%252e", 200, "%2e%2e"),
        ("/items/caf%C3%A9", 200, "café"),
        ("/items/%zz", 400, nil),
        ("/items/a%00b", 400, nil),
        ("/items/%FF", 400, nil),
    ] as [(String, Int, String?)])
    func decodesEachPathSegmentOnce(target: String, status: Int, value: String?) async throws {
        try await withServer(routes: standardRoutes) { server in
            let port = server.port
            let response = try await onThread { try TestConnection.fetch(port: port, target) }
            #expect(response.status == status)
            if let value { #expect(response.text == value) } else { #expect(response.errorCode == "bad_request") }
        }
    }

    @Test func decodesQueryItems() async throws {
        try await withServer(routes: standardRoutes) { server in
            let port = server.port
            let (good, bad) = try await onThread {
                (try TestConnection.fetch(port: port, "/query?a=1+2&b=%C3%A9&c&a=x"),
                 try TestConnection.fetch(port: port, "/query?a=%G1"))
            }
            #expect(good.text == "a=1 2&b=é&c=&a=x")
            #expect(bad.status == 400)
            #expect(bad.errorCode == "bad_request")
        }
    }

    @Test func routerPrefersFirstMatchAndFallsBackToGetForHead() {
        var router = Router()
        router.add(.get, "/a/b", .immediate { _ in Response(status: .ok) })
        router.add(.get, "/a/:x", .immediate { _ in Response(status: .accepted) })
        router.add(.put, "/a/:x", .immediate { _ in Response(status: .ok) })
        guard case .found(.immediate(let first), _, _, _) = router.match(.get, ["a", "b"]) else {
            Issue.record("no match"); return
        }
        #expect(first(Request(method: .get, rawPath: "/a/b", segments: ["a", "b"])).status == .ok)
        guard case .found(_, let parameters, _, _) = router.match(.head, ["a", "z"]) else { Issue.record("no HEAD"); return }
        #expect(parameters == ["x": "z"])
        guard case .methodNotAllowed(let allow) = router.match(.post, ["a", "z"]) else { Issue.record("no 405"); return }
        #expect(allow == [.get, .put, .head])
        guard case .notFound = router.match(.get, ["a", "b", "c"]) else { Issue.record("matched too much"); return }
    }
}

extension HTTPStatus {
    static let accepted = HTTPStatus(202)
}
