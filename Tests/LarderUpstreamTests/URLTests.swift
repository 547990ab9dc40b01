import LarderTesting
import LarderUpstream
import Testing

@Suite("Upstream client: URLs and credentials")
struct URLTests {
    @Test(arguments: ["ftp://127.0.0.1/x", "file:///etc/passwd", "not a url", "http:///no-host", "", "mailto:someone@example.com", "//127.0.0.1/x"])
    func refusesAnythingButHTTPWithAHost(url: String) async throws {
        let error = try await fetchError(url)
        #expect(error?.kind == .badURL, "\(String(describing: error))")
    }

    @Test func aRefusedURLSendsNoRequest() async throws {
        try await withSampleUpstream { upstream in
            let error = try await fetchError("ftp://127.0.0.1:\(upstream.port)/rates/rates.txt")
            #expect(error?.kind == .badURL)
            let port = upstream.port
            let log = try await onThread { try TestConnection.fetch(port: port, "/_control/requests") }.json
            #expect(log?["total"] as? Int == 0)
        }
    }

    @Test func acceptsUppercaseSchemes() async throws {
        try await withSampleUpstream { upstream in
            let result = try await withUpstreamClient { client in
                try await client.fetch("HTTP://127.0.0.1:\(upstream.port)/rates/rates.txt", validators: .none, maxBytes: mebibyte)
            }
            #expect(fetchedBody(result) != nil)
        }
    }

    @Test(arguments: [
        ("http://user:secret@127.0.0.1:8080/x?y=1", "http://127.0.0.1:8080/x?y=1"),
        ("https://user@example.com/", "https://example.com/"),
        ("http://example.com/a@b", "http://example.com/a@b"),
        ("user:secret@example.com/x", "example.com/x"),
        ("not a url", "not a url"),
    ])
    func redactsCredentials(url: String, shown: String) {
        #expect(UpstreamClient.redacted(url) == shown)
    }

    @Test func credentialsGoAsBasicAuthAndNeverIntoMessages() async throws {
        let answer = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        try await withScriptedServer([.send(answer)]) { server in
            let error = try await fetchError("http://user:secret@127.0.0.1:\(server.port)/x")
            #expect(error?.kind == .status)
            #expect(server.requestHeader("Authorization") == "Basic dXNlcjpzZWNyZXQ=")
            #expect(server.requestHeads.first?.contains("secret") == false)
        }
    }

    @Test func messagesNeverContainCredentials() async throws {
        let port = try freePort()
        var messages: [String] = []
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/loop","status":302,"headers":{"Location":"/loop"}}"#)
            try await upstream.fault(#"{"path":"/file","status":302,"headers":{"Location":"file://user:secret@host/etc/passwd"}}"#)
            try await upstream.fault(#"{"path":"/gone","status":410}"#)
            let urls = [
                "http://user:secret@127.0.0.1:\(port)/x",
                "ftp://user:secret@127.0.0.1/x",
                "http://user:secret@127.0.0.1:\(upstream.port)/loop",
                "http://user:secret@127.0.0.1:\(upstream.port)/file",
                "http://user:secret@127.0.0.1:\(upstream.port)/gone",
                "http://user:secret@127.0.0.1:\(upstream.port)/rates/eurofxref-daily.xml",
            ]
            try await withUpstreamClient { client in
                for url in urls {
                    let error = await failure { () async throws(UpstreamError) in
                        try await client.fetch(url, validators: .none, maxBytes: 10)
                    }
                    messages.append(error?.message ?? "(no error for \(UpstreamClient.redacted(url)))")
                }
            }
        }
        #expect(messages.count == 6)
        for message in messages {
            #expect(!message.contains("secret"), "\(message)")
            #expect(!message.contains("user:"), "\(message)")
            #expect(!message.contains("(no error"), "\(message)")
        }
    }
}
