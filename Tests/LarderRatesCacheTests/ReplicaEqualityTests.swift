import Foundation
import LarderConfig
import LarderRates
import LarderTesting
import Testing

/// A replica mirrors its primary Larder's Frankfurter v2 root (SPEC §4.14): the same rates queries give the same
/// bytes and the same `ETag` on both, the ECB's own digits included (`385.50`, which v2's JSON numbers cannot carry).
@Suite("Rates: a replica of a Larder answers byte for byte as its primary")
struct ReplicaEqualityTests {
    /// 2026-11-20, 16:00 UTC: within v2's 14-day lookback of the feed's days.
    static let now = Date(timeIntervalSince1970: 1_795_190_400)
    static let feed = ECB.document([
        ("2026-11-20", [("USD", "1.0820"), ("HUF", "385.50"), ("JPY", "162.40"), ("GBP", "0.84127")]),
        ("2026-11-19", [("USD", "1.0790"), ("HUF", "384.10"), ("JPY", "161.90"), ("GBP", "0.84200")]),
    ])
    static let queries = [
        "/rates", "/v1/latest", "/v1/2026-11-20", "/v1/2026-11-19", "/v1/2026-11-01..2026-11-20", "/v1/latest?base=USD",
        "/v2/rates", "/v2/rates?base=USD", "/v2/rates?from=2026-11-19&to=2026-11-20", "/v2/rate/EUR/HUF", "/v2/providers",
    ]

    @Test func everyQueryHasThePrimarysBytesAndETag() async throws {
        try await withReplica { primary, replica, _ in
            #expect(try await replica.get("/rates").text.contains(#""HUF":385.50"#), "the ECB's digits, as the primary writes them")
            for query in Self.queries {
                let (ours, theirs) = (try await replica.get(query), try await primary.get(query))
                #expect(ours.status == 200 && ours.status == theirs.status, "\(query): \(ours.status) against \(theirs.status)")
                #expect(ours.text == theirs.text, "\(query): the same bytes")
                #expect(ours.header("ETag") != nil && ours.header("ETag") == theirs.header("ETag"), "\(query): the same ETag")
            }
        }
    }

    @Test func aRefreshWithNothingNewCostsThePrimaryOneConditionalRequestAndANewDayStillArrives() async throws {
        try await withReplica { primary, replica, feedUpstream in
            let asked = try await primary.requestsAnswered(under: "/v") {
                _ = try await replica.request("POST", "/rates/refresh")
            }
            #expect(asked == ["/v2/providers 304": 1], "one conditional request, answered 304: \(asked)")
            // A new day on the primary changes its catalogue's validator (its rows grew): the next refresh takes it.
            try await feedUpstream.put(ratesFeedPath, ECB.document([
                ("2026-11-21", [("USD", "1.0833"), ("HUF", "386.00"), ("JPY", "162.10"), ("GBP", "0.84300")]),
                ("2026-11-20", [("USD", "1.0820"), ("HUF", "385.50"), ("JPY", "162.40"), ("GBP", "0.84127")]),
                ("2026-11-19", [("USD", "1.0790"), ("HUF", "384.10"), ("JPY", "161.90"), ("GBP", "0.84200")]),
            ]))
            primary.clock.advance(by: 86_400)
            replica.clock.advance(by: 86_400)
            _ = try await primary.request("POST", "/rates/refresh")
            #expect(try await primary.get("/rates").json?["date"] as? String == "2026-11-21")
            _ = try await replica.request("POST", "/rates/refresh")
            #expect(try await replica.get("/rates").json?["date"] as? String == "2026-11-21")
            for query in ["/v2/providers", "/v2/rates", "/rates"] {
                let (ours, theirs) = (try await replica.get(query), try await primary.get(query))
                #expect(ours.text == theirs.text && ours.header("ETag") == theirs.header("ETag"), "\(query): the same bytes and ETag")
            }
        }
    }

    @Test func aReplicaOfAMirrorStreamsLongRangesWithItsPrimarysETag() async throws {
        // The primary mirrors the sample's eight providers (its rows never rewritten, so counted, not timed).
        let today = Date(timeIntervalSince1970: 1_795_867_200)
        try await withLarder(clock: ManualClock(now: today)) { configuration, upstream in
            configuration.rates = UpstreamResource(url: upstream.url("/"), format: .frankfurter)
            configuration.ratesSchedule = .ttl
        } _: { primary, _ in
            #expect(try await eventually(timeout: .seconds(120)) { try await primary.get("/status").text.contains("8/8 provider(s) synced") })
            try await withLarder(clock: ManualClock(now: today.addingTimeInterval(30))) { configuration, _ in
                configuration.rates = UpstreamResource(url: "http://127.0.0.1:\(primary.port)/", format: .frankfurter)
                configuration.ratesSchedule = .ttl
            } _: { replica, _ in
                // Synced and published: the catalogue's ETag counts the rows.
                #expect(try await eventually(timeout: .seconds(120)) {
                    try await replica.get("/v2/providers").header("ETag") == (try await primary.get("/v2/providers")).header("ETag")
                })
                // Over 5 years: streamed, its validators not from a prepared body.
                for query in ["/v2/rates?from=2020-01-01&to=2026-11-27&providers=ECB&quotes=USD,GBP", "/v2/rates?from=2019-06-01&to=2026-11-28&base=USD&quotes=EUR"] {
                    let (ours, theirs) = (try await replica.get(query), try await primary.get(query))
                    #expect(ours.status == 200 && theirs.status == 200, "\(query): \(ours.status), \(theirs.status) \(theirs.text.prefix(200))")
                    #expect(ours.text == theirs.text, "\(query): the same bytes")
                    #expect(ours.header("ETag") != nil && ours.header("ETag") == theirs.header("ETag"), "\(query): the same ETag")
                }
            }
        }
    }

    /// A Larder fed `feed`, and a replica of it (its root as a `frankfurter` upstream) once it serves the feed's day.
    private func withReplica(_ body: (TestLarder, TestLarder, SampleUpstreamControl) async throws -> Void) async throws {
        try await withRatesFeed(Self.feed, now: Self.now) { primary, feedUpstream in
            try await withLarder(clock: ManualClock(now: Self.now)) { configuration, _ in
                configuration.rates = UpstreamResource(url: "http://127.0.0.1:\(primary.port)/", format: .frankfurter)
                configuration.ratesSchedule = .ttl
            } _: { replica, _ in
                #expect(try await eventually(timeout: .seconds(60)) {
                    try await replica.get("/rates").json?["date"] as? String == "2026-11-20"
                })
                try await body(primary, replica, feedUpstream)
            }
        }
    }
}
