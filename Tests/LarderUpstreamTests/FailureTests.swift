import LarderTesting
import LarderUpstream
import Testing

@Suite("Upstream client: unreachable, slow, short and oversized answers")
struct FailureTests {
    static let daily = "/rates/eurofxref-daily.xml"

    @Test func aPortNobodyListensOnIsUnreachable() async throws {
        let port = try freePort()
        let start = ContinuousClock.now
        let error = try await withUpstreamClient { client in
            await failure { () async throws(UpstreamError) in
                try await client.fetch("http://127.0.0.1:\(port)/x", validators: .none, maxBytes: mebibyte)
            }
        }
        #expect(error?.kind == .unreachable)
        #expect(error?.message.contains("connection refused") == true, "\(error?.message ?? "")")
        #expect(ContinuousClock.now - start < .seconds(15), "refused fast, not after a retry loop or the 60 s default")
    }

    @Test func aConnectThatNeverCompletesTimesOut() async throws {
        // A listener whose accept queue is full (backlog 0 holds one connection) drops further
        // SYNs, so connecting hangs, on loopback.
        let listener = try ListeningSocket(backlog: 0)
        let queued = try TestConnection(port: listener.port, timeout: .seconds(1))
        let start = ContinuousClock.now
        let error = try await withUpstreamClient({ $0.connectTimeout = .milliseconds(500) }) { client in
            await failure { () async throws(UpstreamError) in
                try await client.fetch("http://127.0.0.1:\(listener.port)/x", validators: .none, maxBytes: mebibyte)
            }
        }
        withExtendedLifetime(queued) {}
        #expect(error?.kind == .timeout, "\(String(describing: error))")
        #expect(error?.message.contains("could not connect") == true, "\(error?.message ?? "")")
        #expect(ContinuousClock.now - start < .seconds(15), "the connect timeout, not the 60 s default")
    }

    @Test func anUpstreamThatNeverAnswersTimesOut() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"\#(Self.daily)","delay_ms":3000,"times":1}"#)
            let start = ContinuousClock.now
            let error = try await withUpstreamClient({ $0.requestTimeout = .seconds(1) }) { client in
                await failure { () async throws(UpstreamError) in
                    try await client.fetch(upstream.url(Self.daily), validators: .none, maxBytes: mebibyte)
                }
            }
            #expect(error?.kind == .timeout, "\(String(describing: error))")
            #expect(error?.message.contains("response head") == true, "\(error?.message ?? "")")
            #expect(ContinuousClock.now - start < .seconds(15), "the 1 s request timeout, not the 60 s default")
        }
    }

    @Test func aBodyThatStallsAfterTheHeadTimesOut() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/plain\r\n\r\n"
        try await withScriptedServer([.send(head), .send(String(repeating: "x", count: 100)), .pause(.seconds(10))]) { server in
            let start = ContinuousClock.now
            let error = try await withUpstreamClient({ $0.requestTimeout = .seconds(1) }) { client in
                await failure { () async throws(UpstreamError) in
                    try await client.fetch("http://127.0.0.1:\(server.port)/slow", validators: .none, maxBytes: mebibyte)
                }
            }
            #expect(error?.kind == .timeout, "\(String(describing: error))")
            #expect(error?.message.contains("while the body was arriving") == true, "\(error?.message ?? "")")
            #expect(ContinuousClock.now - start < .seconds(15), "the 1 s request timeout, not the 60 s default")
        }
    }

    @Test func aBodyCutShortOfItsLengthIsATransferError() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"\#(Self.daily)","truncate_at":100,"times":1}"#)
            let error = try await withUpstreamClient { client in
                await failure { () async throws(UpstreamError) in
                    try await client.fetch(upstream.url(Self.daily), validators: .none, maxBytes: mebibyte)
                }
            }
            #expect(error?.kind == .transfer, "\(String(describing: error))")
            #expect(error?.message.contains("before the body was complete") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeReading() async throws {
        try await withSampleUpstream { upstream in
            let error = try await withUpstreamClient { client in
                await failure { () async throws(UpstreamError) in
                    try await client.fetch(upstream.url(Self.daily), validators: .none, maxBytes: 100)
                }
            }
            #expect(error?.kind == .tooLarge)
            #expect(error?.message.contains("Content-Length") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aChunkedBodyOverTheCapIsCutOff() async throws {
        let chunk = "10000\r\n" + String(repeating: "z", count: 0x10000) + "\r\n"
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        // 4 MiB announced chunk by chunk, never declared; the cap is 1 MiB.
        let script: [ScriptedServer.Step] = [.send(head)] + Array(repeating: .send(chunk), count: 64) + [.send("0\r\n\r\n")]
        try await withScriptedServer(script) { server in
            let collected = Collected()
            let error = try await withUpstreamClient { client in
                await failure { () async throws(UpstreamError) in
                    try await client.stream("http://127.0.0.1:\(server.port)/big", validators: .none, maxBytes: mebibyte) {
                        collected.append($0)
                    }
                }
            }
            #expect(error?.kind == .tooLarge)
            #expect(collected.bytes.count <= mebibyte, "the sink never sees bytes past the cap")
        }
    }

    @Test func anErrorOfTheSinkEndsTheRequest() async throws {
        struct DiskFull: Error {}
        try await withSampleUpstream { upstream in
            let error = try await withUpstreamClient { client in
                await failure { () async throws(UpstreamError) in
                    try await client.stream(upstream.url(Self.daily), validators: .none, maxBytes: mebibyte) { _ in throw DiskFull() }
                }
            }
            #expect(error?.kind == .transfer)
            #expect(error?.message.contains("DiskFull") == true, "\(error?.message ?? "")")
        }
    }
}
