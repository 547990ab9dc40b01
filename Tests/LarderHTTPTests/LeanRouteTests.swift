import LarderHTTP
import LarderTesting
import Testing

/// A route that tells what its handler was given: which headers, which query, which path.
private func describingRoutes(_ router: inout Router) {
    router.add(.get, "/shadow/:id", .immediate { request in
        Response(body: .string("pattern \(request.parameters["id"] ?? "")"))
    })
    router.add(.get, "/lean", reads: ["If-None-Match"], .immediate { request in
        let headers = request.headers.map(\.name).joined(separator: ",")
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return Response(body: .string("headers=\(headers);query=\(query);segments=\(request.segments)"))
    })
    router.add(.get, "/encoded", reads: ["Accept-Encoding"], .immediate { request in
        Response(body: .string("gzip=\(request.prefersGzip);headers=\(request.headers.map(\.name).joined(separator: ","))"))
    })
    router.add(.get, "/queried", reads: ["If-None-Match"], readsQuery: true, .immediate { request in
        let headers = request.headers.map(\.name).joined(separator: ",")
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return Response(body: .string("headers=\(headers);query=\(query);segments=\(request.segments)"))
    })
    // Added after a pattern that matches it too: the literal ranks first, lean or not.
    router.add(.get, "/shadow/lean", reads: [], .immediate { _ in Response(body: .string("lean")) })
}

@Suite("Lean routes: a GET of a literal path carries only the headers its route reads")
struct LeanRouteTests {
    @Test func aPlainGetCarriesOnlyTheDeclaredHeaders() async throws {
        try await withServer(routes: describingRoutes) { server in
            let port = server.port
            let response = try await onThread {
                try TestConnection.fetch(port: port, "/lean", headers: [("If-None-Match", "\"x\""), ("X-Other", "y")])
            }
            #expect(response.status == 200)
            #expect(response.text == #"headers=If-None-Match;query=;segments=["lean"]"#)
        }
    }

    @Test func aQueryOrAnEncodedPathTakesTheUsualWayToTheSameHandler() async throws {
        try await withServer(routes: describingRoutes) { server in
            let port = server.port
            let (query, encoded) = try await onThread {
                (try TestConnection.fetch(port: port, "/lean?a=1", headers: [("X-Other", "y")]),
                 try TestConnection.fetch(port: port, "/l%65an", headers: [("X-Other", "y")]))
            }
            #expect(query.status == 200)
            #expect(query.text.contains("query=a=1"))
            #expect(query.text.contains("X-Other"), "every header is collected on the usual way: \(query.text)")
            #expect(encoded.status == 200)
            #expect(encoded.text.contains("X-Other"))
            #expect(encoded.text.contains(#"segments=["lean"]"#))
        }
    }

    @Test func headOversizeHeadersAndOtherMethodsAnswerAsOnTheUsualWay() async throws {
        try await withServer(routes: describingRoutes) { server in
            let port = server.port
            let (head, big, post) = try await onThread {
                (try TestConnection(port: port).request("HEAD", "/lean"),
                 try TestConnection.fetch(port: port, "/lean", headers: [("X-Big", String(repeating: "b", count: 20_000))]),
                 try TestConnection.fetch(port: port, "POST", "/lean", body: Array("x".utf8)))
            }
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(Int(head.header("Content-Length") ?? "") ?? 0 > 0)
            #expect(big.status == 431)
            #expect(big.errorCode == "headers_too_large")
            #expect(post.status == 405)
        }
    }

    @Test func acceptEncodingIsReadFromItsBytesAsOnTheUsualWay() async throws {
        try await withServer(routes: describingRoutes) { server in
            let port = server.port
            let answers = try await onThread {
                try ["/encoded", "/encoded?a=1"].flatMap { target in
                    try ["gzip, deflate, br, zstd", "gzip;q=0, *", nil].map { value in
                        let headers = value.map { [("Accept-Encoding", $0)] } ?? []
                        return try TestConnection.fetch(port: port, target, headers: headers).text
                    }
                }
            }
            #expect(answers[0...2] == ["gzip=true;headers=", "gzip=false;headers=", "gzip=false;headers="],
                    "the lean request keeps no text of the field")
            #expect(answers[3...5].map { $0.prefix(10) } == ["gzip=true;", "gzip=false", "gzip=false"])
        }
    }

    @Test func aRouteThatReadsTheQueryIsLeanWithOneDecodedAsOnTheUsualWay() async throws {
        try await withServer(routes: describingRoutes) { server in
            let port = server.port
            let (plain, queried, empty, bad) = try await onThread {
                let headers = [("If-None-Match", "\"x\""), ("X-Other", "y")]
                return (try TestConnection.fetch(port: port, "/queried", headers: headers),
                        try TestConnection.fetch(port: port, "/queried?base=US%44&symbols=GBP,JPY&a+b=c+d", headers: headers),
                        try TestConnection.fetch(port: port, "/queried?", headers: headers),
                        try TestConnection.fetch(port: port, "/queried?base=%FF", headers: headers))
            }
            #expect(plain.text == #"headers=If-None-Match;query=;segments=["queried"]"#)
            #expect(queried.text == #"headers=If-None-Match;query=base=USD&symbols=GBP,JPY&a b=c d;segments=["queried"]"#,
                    "only the declared headers, the query decoded")
            #expect(empty.text == #"headers=If-None-Match;query=;segments=["queried"]"#)
            #expect(bad.status == 400, "a query that does not decode gets the usual way's 400")
        }
    }

    @Test func aLiteralRouteAddedAfterAPatternThatMatchesItAnswersBothWays() async throws {
        try await withServer(routes: describingRoutes) { server in
            let port = server.port
            let (lean, usual) = try await onThread {
                (try TestConnection.fetch(port: port, "/shadow/lean"), try TestConnection.fetch(port: port, "/shadow/lean?x=1"))
            }
            #expect(lean.text == "lean" && usual.text == "lean", "the lean path and the usual way: \(lean.text), \(usual.text)")
        }
    }
}
