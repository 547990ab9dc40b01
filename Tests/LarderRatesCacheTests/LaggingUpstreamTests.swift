import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderRates
import LarderRatesCache
import LarderTesting
import Testing

/// Friday 2026-11-27, 16:30 Europe/Berlin: the ECB's publication of that day is due (16:00 plus the margin).
private let fridayAfterThePublication = Date(timeIntervalSince1970: 1_795_793_400)
/// The same Friday at 15:00 Europe/Berlin: Thursday's is the newest due.
private let fridayBeforeThePublication = Date(timeIntervalSince1970: 1_795_788_000)
/// Saturday 2026-11-28, 13:00 Europe/Berlin: no publication; Friday's is the newest due.
private let saturday = Date(timeIntervalSince1970: 1_795_867_200)

private let thursday = ECB.document([("2026-11-26", ECB.rates), ("2026-11-25", ECB.rates)])
private let friday = ECB.document([("2026-11-27", ECB.rates), ("2026-11-26", ECB.rates), ("2026-11-25", ECB.rates)])

/// `withTwoUpstreams` under the ECB calendar with the clock at `now` (it moves only when told, so only
/// the start-up refresh and the test's ask the upstreams).
private func withTwoFeeds<T: Sendable>(
    at now: Date, primary: String, secondary: String, crossCheck: Bool = false,
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withTwoUpstreams(
        primaryFeed: primary, secondaryFeed: secondary, now: now, schedule: .ecb, crossCheck: crossCheck, body)
}

extension TestLarder {
    /// `larder_upstream_behind` of the rates upstream at `url`.
    fileprivate func behindGauge(_ url: String) async throws -> Double? {
        let prefix = #"larder_upstream_behind{resource="rates",upstream="\#(url)"} "#
        return try await get("/metrics").text.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count)) }
    }
}

@Suite("A lagging upstream does not hold Larder back (SPEC §4.12)")
struct LaggingUpstreamTests {
    @Test func aPrimaryADayBehindHandsTheDuePublicationToTheNextInTheSameRefresh() async throws {
        try await withTwoFeeds(at: fridayAfterThePublication, primary: thursday, secondary: thursday) { larder, upstream in
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-26")
            // The secondary publishes Friday; held a moment, so the log shows who was asked first.
            try await upstream.put(secondaryPath, friday)
            try await upstream.resetRequests()
            try await upstream.fault(#"{"path":"\#(secondaryPath)","delay_ms":500}"#)
            async let refreshed = larder.post("/rates/refresh")
            let secondaryAsked = try await eventually { try await upstream.requests(secondaryPath).inFlight == 1 }
            #expect(secondaryAsked, "the secondary was not asked")
            let primary = try await upstream.requests(primaryPath)
            #expect(primary.total == 1 && primary.inFlight == 0, "the primary answered first: \(primary)")
            let answer = try await refreshed
            #expect(answer.status == 200)
            #expect(answer.json?["date"] as? String == "2026-11-27")
            #expect(try await upstream.counts() == (1, 1))
            #expect(try await larder.get("/rates").json?["date"] as? String == "2026-11-27")

            // Behind is no failure: the breaker stays closed, and every view names it.
            let upstreams = try await larder.upstreams()
            #expect(upstreams.map { $0["behind"] as? Bool } == [true, false])
            #expect(upstreams.map { $0["newest_day"] as? String } == ["2026-11-26", "2026-11-27"])
            #expect(upstreams.map { $0["state"] as? String } == ["closed", "closed"])
            #expect(upstreams.first?["consecutive_failures"] as? Int == 0)
            #expect(try await larder.behindGauge(upstream.url(primaryPath)) == 1)
            #expect(try await larder.behindGauge(upstream.url(secondaryPath)) == 0)
            let page = try await larder.get("/", headers: [("Accept", "text/html")]).text
            #expect(page.contains("behind</span> newest day 2026-11-26"))

            // Next time the up-to-date one is asked first, and the lagging primary not at all.
            try await upstream.clearFaults()
            #expect(try await larder.post("/rates/refresh").status == 200)
            #expect(try await upstream.counts() == (1, 2))
        }
    }

    /// When the primary holds the newest day due.
    enum NothingMissing: String, CaseIterable, Sendable {
        /// Friday before its publication, the primary at Thursday.
        case beforeFridaysPublication
        /// No publication on a Saturday; the primary at Friday.
        case onSaturday

        var now: Date { self == .onSaturday ? saturday : fridayBeforeThePublication }
        var primary: String { self == .onSaturday ? friday : thursday }
    }

    @Test(arguments: NothingMissing.allCases)
    func aPrimaryHoldingTheNewestDueDayIsNotSecondGuessed(when: NothingMissing) async throws {
        try await withTwoFeeds(at: when.now, primary: when.primary, secondary: friday) { larder, upstream in
            let refreshed = try await larder.post("/rates/refresh")
            #expect(refreshed.status == 200)
            #expect(try await upstream.counts() == (2, 0))
            #expect(try await larder.upstreams().map { $0["behind"] as? Bool } == [false, false])
        }
    }

    @Test func theCrossCheckNamesAnUpstreamWhoseNewestDayIsOlder() async throws {
        try await withTwoFeeds(at: fridayAfterThePublication, primary: friday, secondary: thursday, crossCheck: true) {
            larder, upstream in
            let checked = try await eventually { larder.application?.rates?.crossCheckReport != nil }
            try #require(checked)
            let rates = (try await larder.get("/status").json?["resources"] as? [String: Any])?["rates"] as? [String: Any]
            let check = try #require(rates?["cross_check"] as? [String: Any])
            let secondary = upstream.url(secondaryPath)
            #expect(check["behind_upstreams"] as? [String] == [secondary])
            let asked = (check["upstreams"] as? [[String: Any]])?.last
            #expect(asked?["outcome"] as? String == "behind")
            #expect(asked?["newest_day"] as? String == "2026-11-26")
            #expect(try await larder.upstreams().map { $0["behind"] as? Bool } == [false, true])
            #expect(try await larder.behindGauge(secondary) == 1)
            let page = try await larder.get("/", headers: [("Accept", "text/html")]).text
            #expect(page.contains("behind: <code>\(secondary)</code> (newest 2026-11-26)"))
        }
    }
}
