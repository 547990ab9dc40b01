import LarderTesting
import LarderUpstream
import Testing

@Suite("Upstream client: at most 5 redirects, http and https only")
struct RedirectTests {
    static let daily = "/rates/eurofxref-daily.xml"

    /// Adds redirects `/r1 → /r2 → … → /r<count> → daily` and returns the first path.
    private func chain(_ count: Int, on upstream: SampleUpstreamControl) async throws -> String {
        for hop in 1...count {
            let next = hop == count ? Self.daily : "/r\(hop + 1)"
            try await upstream.fault(#"{"path":"/r\#(hop)","status":302,"headers":{"Location":"\#(next)"}}"#)
        }
        return "/r1"
    }

    @Test func followsARedirectAndKeepsTheFinalValidators() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/old","status":301,"headers":{"Location":"\#(Self.daily)","ETag":"\"redirect\""}}"#)
            let result = try await withUpstreamClient { client in
                try await client.fetch(upstream.url("/old"), validators: .none, maxBytes: mebibyte)
            }
            let body = fetchedBody(result)
            #expect(body?.contentType == "application/xml")
            #expect(body?.validators.etag?.hasPrefix("\"redirect") == false)
            #expect(body?.validators.etag != nil)
        }
    }

    @Test func followsFiveRedirects() async throws {
        try await withSampleUpstream { upstream in
            let first = try await chain(5, on: upstream)
            let result = try await withUpstreamClient { client in
                try await client.fetch(upstream.url(first), validators: .none, maxBytes: mebibyte)
            }
            #expect(fetchedBody(result)?.contentType == "application/xml")
        }
    }

    @Test func refusesASixthRedirect() async throws {
        try await withSampleUpstream { upstream in
            let first = try await chain(6, on: upstream)
            let error = try await fetchError(upstream.url(first))
            #expect(error?.kind == .redirect)
            #expect(error?.message.contains("more than 5 redirects") == true, "\(error?.message ?? "")")
            #expect(try await upstream.requests(Self.daily).statuses.isEmpty)
        }
    }

    @Test func refusesARedirectToItself() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/loop","status":302,"headers":{"Location":"/loop"}}"#)
            let error = try await fetchError(upstream.url("/loop"))
            #expect(error?.kind == .redirect)
            #expect(error?.message.contains("loop") == true, "\(error?.message ?? "")")
        }
    }

    @Test func refusesALoopThroughTwoPaths() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/a","status":307,"headers":{"Location":"/b"}}"#)
            try await upstream.fault(#"{"path":"/b","status":308,"headers":{"Location":"/a"}}"#)
            let error = try await fetchError(upstream.url("/a"))
            #expect(error?.kind == .redirect)
            #expect(try await upstream.requests("/a").statuses == ["307": 1])
        }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/rates.xml", "gopher://127.0.0.1/x", "http+unix://%2Ftmp%2Fs/x"])
    func refusesARedirectToAnotherScheme(location: String) async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/away","status":302,"headers":{"Location":"\#(location)"}}"#)
            let error = try await fetchError(upstream.url("/away"))
            #expect(error?.kind == .redirect, "\(String(describing: error))")
            #expect(error?.message.contains(location) == true, "\(error?.message ?? "")")
        }
    }

    @Test func aRedirectWithoutALocationIsAStatusError() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/nowhere","status":302}"#)
            let error = try await fetchError(upstream.url("/nowhere"))
            #expect(error?.kind == .status)
            #expect(error?.status == 302)
        }
    }

    @Test func noRedirectsWhenTheLimitIsZero() async throws {
        try await withSampleUpstream { upstream in
            let first = try await chain(1, on: upstream)
            let error = try await fetchError(upstream.url(first), { $0.maxRedirects = 0 })
            #expect(error?.kind == .redirect)
        }
    }
}
