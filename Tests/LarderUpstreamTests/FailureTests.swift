import LarderTesting
import LarderUpstream
import Testing

@Suite("Upstream client: unreachable, slow, short and oversized answers")
struct FailureTests {
    static let daily = "/rates/eurofxref-daily.xml"

    @Test func aPortNobodyListensOnIsUnreachable() async throws {
        let port = try freePort()
        let start = ContinuousClock.now
        let error = try await fetchError("http://127.0.0.1:\(port)/x")
        #expect(error?.kind == .unreachable)
        #expect(error?.message.contains("connection refused") == true, "\(error?.message ?? "")")
        #expect(ContinuousClock.now - start < .seconds(45), "refused fast, not after a retry loop or the 60 s default")
    }

    @Test func aConnectThatNeverCompletesTimesOut() async throws {
        // A listener whose accept queue is full (backlog 0 holds one connection) drops further
        // SYNs, so connecting hangs, on loopback.
        let listener = try ListeningSocket(backlog: 0)
        let queued = try TestConnection(port: listener.port, timeout: .seconds(1))
        try await expectTimeout("http://127.0.0.1:\(listener.port)/x", mentioning: "could not connect") {
            $0.connectTimeout = .milliseconds(500)
        }
        withExtendedLifetime(queued) {}
    }

    @Test func anUpstreamThatNeverAnswersTimesOut() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"\#(Self.daily)","delay_ms":3000,"times":1}"#)
            try await expectTimeout(upstream.url(Self.daily), mentioning: "response head") { $0.requestTimeout = .seconds(1) }
        }
    }

    @Test func aBodyThatStallsAfterTheHeadTimesOut() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/plain\r\n\r\n"
        // The pause outlasts any stall of a busy machine (the server's stop cuts it short): were the
        // connection to close first, the body's end would race the timer and could win.
        try await withScriptedServer([.send(head), .send(String(repeating: "x", count: 100)), .pause(.seconds(300))]) { server in
            try await expectTimeout("http://127.0.0.1:\(server.port)/slow", mentioning: "while the body was arriving") {
                $0.requestTimeout = .seconds(1)
            }
        }
    }

    @Test func aBodyCutShortOfItsLengthIsATransferError() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"\#(Self.daily)","truncate_at":100,"times":1}"#)
            let error = try await fetchError(upstream.url(Self.daily))
            #expect(error?.kind == .transfer, "\(String(describing: error))")
            #expect(error?.message.contains("before the body was complete") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeReading() async throws {
        try await withSampleUpstream { upstream in
            let error = try await fetchError(upstream.url(Self.daily), maxBytes: 100)
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
            // Only the cap may end this request: on a machine busy with every other suite, 1 MiB in
            // 64 KiB chunks has taken longer than the default 20 s deadline.
            let error = try await withUpstreamClient({ $0.requestTimeout = .seconds(300) }) { client in
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

/// Expects one fetch of `url` with the limits `configure` sets to time out, with a message that says
/// where (`phase`), well before the 60 s default: the configured timeout (the margin is for a machine
/// busy with every other suite).
private func expectTimeout(
    _ url: String, mentioning phase: String, _ configure: (inout UpstreamLimits) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let start = ContinuousClock.now
    let error = try await fetchError(url, configure)
    #expect(error?.kind == .timeout, "\(String(describing: error))", sourceLocation: sourceLocation)
    #expect(error?.message.contains(phase) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
    #expect(ContinuousClock.now - start < .seconds(45), "the configured timeout, not the 60 s default", sourceLocation: sourceLocation)
}
