import LarderTesting
import LarderUpstream
import Testing

// Serialized so the bomb test measures memory without its neighbours inflating bodies alongside.
@Suite("Upstream client: compressed bodies are capped after decompression", .serialized)
struct CompressionTests {
    @Test func aGzipBodyArrivesDecompressed() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/zeros","gzip_bomb_mib":1}"#)
            let result = try await withUpstreamClient { client in
                try await client.fetch(upstream.url("/zeros"), validators: .none, maxBytes: 8 * mebibyte)
            }
            let body = fetchedBody(result)
            #expect(body?.bytes.count == mebibyte)
            #expect(body?.bytes.allSatisfy { $0 == 0 } == true)
        }
    }

    @Test func aGzipBombIsRefusedQuicklyWithoutInflatingIt() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/bomb","gzip_bomb_mib":600}"#)
            // Build the bomb before measuring: the upstream lives in this process too.
            let warmUp = try await fetchError(upstream.url("/bomb"))
            #expect(warmUp?.kind == .tooLarge)
            let start = ContinuousClock.now
            let (error, growth) = try await MemoryProbe.peakGrowth {
                try await fetchError(upstream.url("/bomb"), maxBytes: 8 * mebibyte)
            }
            #expect(error?.kind == .tooLarge, "\(String(describing: error))")
            #expect(ContinuousClock.now - start < .seconds(20))
            // Inflating it all would take 600 MiB. Allowed: the 8 MiB cap held by `fetch`, one socket
            // read's inflation (up to 16 MiB) and, with room to spare, other suites running in this
            // process at the same time (the 50 MiB document test among them).
            #expect(growth < 300 * mebibyte, "peak resident memory grew by \(growth >> 20) MiB")
        }
    }

    @Test func aSmallCompressedBodyOverTheCapIsRefused() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/zeros","gzip_bomb_mib":2}"#)
            let error = try await fetchError(upstream.url("/zeros"))
            #expect(error?.kind == .tooLarge)
            #expect(error?.message.contains("after decompression") == true, "\(error?.message ?? "")")
        }
    }

    @Test func theClientWideInflationLimitIsABackstop() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/zeros","gzip_bomb_mib":4}"#)
            let error = try await fetchError(upstream.url("/zeros"), maxBytes: 64 * mebibyte, { $0.maxInflatedBytes = mebibyte })
            #expect(error?.kind == .tooLarge, "\(String(describing: error))")
            #expect(error?.message.contains("decompression limit") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aBodyThatIsNotTheGzipItClaimsIsATransferError() async throws {
        try await withSampleUpstream { upstream in
            try await upstream.fault(#"{"path":"/fake","body":"this is not gzip at all","headers":{"Content-Encoding":"gzip"}}"#)
            let error = try await fetchError(upstream.url("/fake"))
            #expect(error?.kind == .transfer, "\(String(describing: error))")
        }
    }
}
