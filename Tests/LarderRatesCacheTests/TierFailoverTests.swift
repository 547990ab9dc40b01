import Foundation
import LarderApp
import LarderConfig
import LarderRates
import LarderRatesCache
import LarderTesting
import Testing

/// A replica of two primary Larders with the origin as its `;fallback` (SPEC §4.12, §4.14): primary-a down, the
/// replica takes the new publication from primary-b, byte for byte as primary-b serves it, and never asks the
/// origin; both down, the origin once; it never serves an older day than one it served.
@Suite("Rates: failover through a tier of Larders")
struct TierFailoverTests {
    /// 2026-11-20, 16:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_190_400)
    static let originPath = "/rates/origin.xml"
    static let thursday = ECB.document([("2026-11-19", [("USD", "1.0790"), ("HUF", "384.10")])])
    static let friday = ECB.document([("2026-11-20", [("USD", "1.0820"), ("HUF", "385.50")]), ("2026-11-19", [("USD", "1.0790"), ("HUF", "384.10")])])
    static let monday = ECB.document([("2026-11-23", [("USD", "1.0850"), ("HUF", "386.00")]), ("2026-11-20", [("USD", "1.0820"), ("HUF", "385.50")])])

    @Test func primaryADownThenBothDown() async throws {
        try await withRatesFeed(Self.thursday, now: Self.now) { primaryA, origin in
            try await origin.put(Self.originPath, Self.thursday)
            try await withLarder(clock: ManualClock(now: Self.now)) { configuration, _ in
                configuration.rates = UpstreamResource(url: origin.url(ratesFeedPath), format: .auto)
                configuration.ratesSchedule = .ttl
            } _: { primaryB, _ in
                #expect(try await eventually { try await primaryB.get("/rates").status == 200 })
                try await withLarder(clock: ManualClock(now: Self.now)) { configuration, _ in
                    configuration.rates = UpstreamResource(upstreams: [
                        Upstream(url: "http://127.0.0.1:\(primaryA.port)/", format: .frankfurter),
                        Upstream(url: "http://127.0.0.1:\(primaryB.port)/", format: .frankfurter),
                        Upstream(url: origin.url(Self.originPath), format: .auto, fallback: true),
                    ])
                    configuration.ratesSchedule = .ttl
                    configuration.ratesTTL = .seconds(3600)
                } _: { replica, _ in
                    #expect(try await eventually(timeout: .seconds(60)) {
                        try await replica.get("/rates").json?["date"] as? String == "2026-11-19"
                    })
                    // Friday's publication reaches both primaries; then primary-a goes away.
                    try await origin.put(ratesFeedPath, Self.friday)
                    try await origin.put(Self.originPath, Self.friday)
                    for primary in [primaryA, primaryB] {
                        #expect(try await primary.request("POST", "/rates/refresh").json?["outcome"] as? String == "updated")
                    }
                    await primaryA.stop()
                    replica.clock.advance(by: 3600)
                    let fromB = try await replica.request("POST", "/rates/refresh")
                    #expect(fromB.json?["date"] as? String == "2026-11-20", "primary-b's copy: \(fromB.text)")
                    let (ours, theirs) = (try await replica.get("/rates"), try await primaryB.get("/rates"))
                    #expect(ours.text == theirs.text && ours.header("ETag") == theirs.header("ETag"), "byte for byte primary-b's")
                    // The new day's cross-check has run (primary-a's part of it unanswered) without the origin.
                    #expect(try await eventually {
                        let rates = (try await replica.get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
                        return (rates?["cross_check"] as? [String: Any])?["date"] as? String == "2026-11-20"
                            && replica.application?.rates?.isCrossChecking == false
                    })
                    #expect(try await origin.requests(Self.originPath).total == 0, "the origin neither asked nor cross-checked")

                    // Both primaries down: the origin, once, with Monday's publication.
                    await primaryB.stop()
                    try await origin.put(Self.originPath, Self.monday)
                    replica.clock.advance(by: 3 * 86_400)
                    let fromOrigin = try await replica.request("POST", "/rates/refresh")
                    #expect(fromOrigin.json?["date"] as? String == "2026-11-23", "\(fromOrigin.text)")
                    #expect(try await origin.requests(Self.originPath).total == 1)
                    #expect(try await replica.get("/v1/2026-11-20?symbols=HUF").text.contains("385.50"), "no day served before is lost")
                }
            }
        }
    }
}
