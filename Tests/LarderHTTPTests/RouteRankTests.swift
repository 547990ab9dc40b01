import LarderHTTP
import LarderTesting
import Testing

/// Which route answers a path does not depend on the order routes were added in: literal segments
/// rank over `:name`, which ranks over `*name`, and of one shape the route with an `accepts` rule first.
@Suite("Route ranking over real HTTP")
struct RouteRankTests {
    /// Routes that compete for `/a/b`, `/a/x` and `/a/x/y`, in the order given.
    static func competing(_ order: [Int]) -> (inout Router) -> Void {
        { router in
            let routes: [(String, Router.ParameterRule?)] = [
                ("/a/*rest", nil), ("/a/:id", nil), ("/a/b", nil), ("/a/:id", { _, value in value.count == 1 }),
            ]
            for index in order {
                let (pattern, rule) = routes[index]
                let name = rule == nil ? pattern : pattern + "?"
                router.add(.get, pattern, accepts: rule, .immediate { _ in Response(body: .string(name)) })
            }
        }
    }

    @Test(arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]])
    func theMostSpecificRouteAnswersInAnyOrder(_ order: [Int]) async throws {
        try await withServer(routes: Self.competing(order)) { server in
            let port = server.port
            let answers = try await onThread {
                try ["/a/b", "/a/x", "/a/xy", "/a/x/y"].map { try TestConnection.fetch(port: port, $0).text }
            }
            #expect(answers == ["/a/b", "/a/:id?", "/a/:id", "/a/*rest"], "added in the order \(order)")
        }
    }

    @Test func twoRoutesOfOneShapeAndMethodStopTheProcessWhenAdded() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var router = Router()
            router.add(.get, "/rates/:date", .immediate { _ in Response() })
            router.add(.get, "/rates/:day", .immediate { _ in Response() })
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("GET /rates/:day and GET /rates/:date are ambiguous"), "\(message)")
    }

    @Test func oneShapeOfTwoMethodsOrWithOneRuleIsNoAmbiguity() {
        var router = Router()
        router.add(.get, "/rates/:date", .immediate { _ in Response() })
        router.add(.post, "/rates/:date", .immediate { _ in Response() })
        router.add(.get, "/rates/:date", accepts: { _, _ in true }, .immediate { _ in Response() })
        #expect(router.table.count == 3)
    }
}
