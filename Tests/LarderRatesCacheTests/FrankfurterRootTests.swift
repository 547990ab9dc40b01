import Foundation
import LarderConfig
import LarderRates
import LarderTesting
import Testing

/// A `frankfurter` URL on a root that serves no v2 (an older Frankfurter, v1 at its root as api.frankfurter.app
/// was) is read as v1 ranges, as a URL ending in `/v1/` is (issue 38, part 1).
@Suite("Rates: a Frankfurter root without v2")
struct FrankfurterRootTests {
    static let today = FrankfurterMirrorTests.today

    /// A v1 range answer of `days`, each with USD and JPY.
    static func range(_ days: [(String, String)]) -> String {
        let rates = days.map { #""\#($0.0)":{"JPY":161.3,"USD":\#($0.1)}"# }.joined(separator: ",")
        return #"{"amount":1.0,"base":"EUR","start_date":"\#(days[0].0)","end_date":"\#(days.last!.0)","rates":{\#(rates)}}"#
    }

    @Test func aRootAnswering404ToV2IsReadAsV1RangesAndNotAskedForV2Again() async throws {
        try await withLarder(clock: ManualClock(now: Self.today)) { configuration, upstream in
            try await upstream.put("/old/1999-01-04..", Self.range([("2026-11-26", "1.0812"), ("2026-11-27", "1.0830")]))
            configuration.rates = UpstreamResource(url: upstream.url("/old/"), format: .frankfurter)
            configuration.ratesSchedule = .ttl
            configuration.ratesTTL = .seconds(3600)
        } _: { larder, upstream in
            let synced = try await eventually(timeout: .seconds(60), every: .milliseconds(50)) {
                try await larder.get("/rates").text.contains(#""date":"2026-11-27""#)
            }
            #expect(synced, "the v1 range at the root is the copy")
            #expect(try await upstream.requests("/old/v2/providers").total == 1, "v2 asked once, answered 404")
            #expect(try await larder.get("/v1/2026-11-26?symbols=USD").text.contains("1.0812"))

            // A refresh asks the open range from the newest day, and not /v2 again.
            try await upstream.put("/old/2026-11-27..", Self.range([("2026-11-27", "1.0830"), ("2026-11-28", "1.0845")]))
            larder.clock.advance(by: 3600)
            let refresh = try await larder.request("POST", "/rates/refresh").json
            #expect(refresh?["outcome"] as? String == "updated")
            #expect(refresh?["days_changed"] as? Int == 1)
            #expect(try await larder.get("/rates").text.contains(#""date":"2026-11-28""#))
            #expect(try await upstream.requests("/old/2026-11-27..").total == 1)
            #expect(try await upstream.requests("/old/v2/providers").total == 1)
        }
    }
}
