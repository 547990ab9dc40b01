import Foundation
import LarderHTTP
import LarderTesting
import LarderUpstream
import Testing

@Suite("Upstream client: conditional GET")
struct FetchTests {
    static let daily = "/rates/eurofxref-daily.xml"

    @Test func fetchesABodyWithItsValidatorsAndType() async throws {
        try await withSampleUpstream { upstream in
            try await withUpstreamClient { client in
                let result = try await client.fetch(upstream.url(Self.daily), validators: .none, maxBytes: 8 * mebibyte)
                let body = try #require(fetchedBody(result))
                let onDisk = try Data(contentsOf: ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-daily.xml"))
                #expect(body.bytes == Array(onDisk))
                #expect(body.validators.etag?.hasPrefix("\"") == true)
                #expect(body.validators.lastModified.flatMap(HTTPDate.parse) != nil)
                #expect(body.contentType == "application/xml")
            }
        }
    }

    /// Fetches the daily file, then again with the validators `pick` takes from the first answer:
    /// the first answer's validators, the second answer, and the statuses the upstream sent.
    private func revalidate(
        _ pick: (UpstreamValidators) -> UpstreamValidators
    ) async throws -> (UpstreamValidators, UpstreamResult, [String: Int]) {
        try await withSampleUpstream { upstream in
            try await withUpstreamClient { client in
                let first = try #require(fetchedBody(try await client.fetch(upstream.url(Self.daily), validators: .none, maxBytes: mebibyte)))
                let second = try await client.fetch(upstream.url(Self.daily), validators: pick(first.validators), maxBytes: mebibyte)
                return (first.validators, second, try await upstream.requests(Self.daily).statuses)
            }
        }
    }

    @Test func revalidatesByETag() async throws {
        let (first, second, statuses) = try await revalidate { UpstreamValidators(etag: $0.etag) }
        guard case .notModified(let validators, _) = second else {
            Issue.record("expected 304, got \(second)")
            return
        }
        #expect(validators == first)
        // A 304 for a request that carried only If-None-Match: the upstream saw the tag.
        #expect(statuses == ["200": 1, "304": 1])
    }

    @Test func revalidatesByDate() async throws {
        let (_, second, statuses) = try await revalidate { UpstreamValidators(lastModified: $0.lastModified) }
        guard case .notModified = second else {
            Issue.record("expected 304, got \(second)")
            return
        }
        #expect(statuses == ["200": 1, "304": 1])
    }

    @Test func aChangedFileComesBackWhole() async throws {
        try await withSampleUpstream { upstream in
            try await withUpstreamClient { client in
                let url = upstream.url("/rates/rates.txt")
                let first = try #require(fetchedBody(try await client.fetch(url, validators: .none, maxBytes: mebibyte)))
                try await upstream.put("/rates/rates.txt", Array("USD|US dollar|1.5\n".utf8))
                let second = try #require(fetchedBody(try await client.fetch(url, validators: first.validators, maxBytes: mebibyte)))
                #expect(second.bytes == Array("USD|US dollar|1.5\n".utf8))
                #expect(second.validators.etag != first.validators.etag)
            }
        }
    }

    @Test(arguments: [(500, "500 Internal Server Error"), (503, "503 Service Unavailable"), (404, "404 Not Found")])
    func otherStatusesFail(status: Int, line: String) async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"\#(Self.daily)","status":\#(status)}"#)
            let error = try await fetchError(upstream.url(Self.daily))
            #expect(error == UpstreamError(.status, "upstream answered \(line)", status: status))
        }
    }

    @Test func sendsUserAgentAndValidatorsAndKeepsOnesA304Omits() async throws {
        let answer = "HTTP/1.1 304 Not Modified\r\nETag: \"new\"\r\nConnection: close\r\n\r\n"
        try await withScriptedServer([.send(answer)]) { server in
            let sent = UpstreamValidators(etag: "\"old\"", lastModified: "Fri, 20 Nov 2026 16:00:00 GMT")
            let result = try await withUpstreamClient { client in
                try await client.fetch("http://127.0.0.1:\(server.port)/x", validators: sent, maxBytes: mebibyte)
            }
            #expect(server.requestHeader("User-Agent") == "larder/test")
            #expect(server.requestHeader("If-None-Match") == "\"old\"")
            #expect(server.requestHeader("If-Modified-Since") == "Fri, 20 Nov 2026 16:00:00 GMT")
            #expect(server.requestHeader("Accept-Encoding")?.contains("gzip") == true)
            guard case .notModified(let validators, _) = result else {
                Issue.record("expected 304, got \(result)")
                return
            }
            #expect(validators == UpstreamValidators(etag: "\"new\"", lastModified: sent.lastModified))
        }
    }

    @Test func streamsTheBodyInOrderToASink() async throws {
        try await withSampleUpstream { upstream in
            try await withUpstreamClient { client in
                let collected = Collected()
                let outcome = try await client.stream(upstream.url("/rates/eurofxref-hist-90d.xml"), validators: .none, maxBytes: mebibyte) {
                    collected.append($0)
                }
                let onDisk = try Data(contentsOf: ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-hist-90d.xml"))
                guard case .streamed(let body) = outcome else {
                    Issue.record("expected a body, got \(outcome)")
                    return
                }
                #expect(body.byteCount == onDisk.count)
                #expect(collected.bytes == Array(onDisk))
                #expect(body.validators.etag != nil)
            }
        }
    }

    @Test func aBodyOfExactlyTheCapIsAccepted() async throws {
        try await withSampleUpstream { upstream in
            let size = try Data(contentsOf: ChildProcess.examplesUpstream.appendingPathComponent("rates/rates.txt")).count
            let result = try await withUpstreamClient { client in
                try await client.fetch(upstream.url("/rates/rates.txt"), validators: .none, maxBytes: size)
            }
            #expect(fetchedBody(result)?.bytes.count == size)
        }
    }

    @Test func reusesOneClientForManyRequests() async throws {
        try await withSampleUpstream { upstream in
            try await withUpstreamClient { client in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<20 {
                        group.addTask {
                            try await fetchedBody(client.fetch(upstream.url(Self.daily), validators: .none, maxBytes: mebibyte))?.bytes.count ?? 0
                        }
                    }
                    for try await count in group {
                        #expect(count > 1000)
                    }
                }
            }
            #expect(try await upstream.requests(Self.daily).statuses == ["200": 20])
        }
    }
}
