// docs/testing.md shows this file from its first import on, and TestingGuideTests checks they agree.
import LarderConfig
import LarderRates
import LarderTesting
import Testing

@Test func aSundayAnswersFridayAndTheTTLRefreshes() async throws {
    try await withLarder { configuration, upstream in
        try await upstream.put("/rates/feed.xml", ECB.document([("2026-11-20", ECB.rates)]))
        configuration.rates = UpstreamResource(url: upstream.url("/rates/feed.xml"), format: .auto)
        configuration.ratesSchedule = .ttl
        configuration.ratesTTL = .seconds(60)
    } _: { larder, upstream in
        let answer = try await larder.get("/v1/2026-11-22")
        #expect(answer.json?["date"] as? String == "2026-11-20")
        larder.clock.advance(by: 60)                          // time moves only when told
        #expect(try await eventually { try await upstream.requests("/rates/feed.xml").total == 2 })
    }
}
