import LarderApp
@testable import LarderHTTP
import LarderTesting
import Synchronization
import Testing

@Suite("An answer libmicrohttpd cannot allocate: 503 with Retry-After, counted in /metrics")
struct AllocationFailureMetricTests {
    /// The debug-only fault makes the next two answers unallocatable: a prepared one (`/rates`) and a
    /// composed one (a 404); both go out as the 503 made at start, and the counter says 2.
    @Test func unallocatableAnswersAre503AndCounted() async throws {
        try await withRates { larder, _ in
            let server = try #require(larder.application?.server)
            let before = try await larder.get("/metrics").text
            #expect(sample(before, "larder_http_response_allocation_failures_total") == 0)
            server.configuration.faults.failingResponses.remaining.store(2, ordering: .relaxed)
            for target in ["/rates", "/nowhere"] {
                let answer = try await larder.get(target)
                #expect(answer.status == 503, "\(target)")
                #expect(answer.header("Retry-After") == "1")
                #expect(answer.errorCode == "unavailable")
            }
            let after = try await larder.get("/metrics").text
            #expect(sample(after, "larder_http_response_allocation_failures_total") == 2)
            #expect(try await larder.get("/rates").status == 200)
        }
    }
}
