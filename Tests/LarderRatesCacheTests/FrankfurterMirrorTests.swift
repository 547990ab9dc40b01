import Foundation
import LarderConfig
import LarderRates
import LarderStore
import LarderTesting
import Testing

/// The `frankfurter` format on the API's root mirrors Frankfurter v2 whole: the sample upstream serves the committed
/// multi-provider set (`Examples/upstream/frankfurter/`) as Frankfurter's single-provider `/v2/rates` queries answer
/// it, and Larder stores every provider's rows with their digits (docs/rates.md, "A Frankfurter v2 mirror").
@Suite("Rates: a Frankfurter v2 mirror of the multi-provider sample")
struct FrankfurterMirrorTests {
    /// The sample set's "today": 2026-11-28T12:00:00Z.
    static let today = Date(timeIntervalSince1970: 1_795_867_200)
    static let folder = ChildProcess.examplesUpstream.appending(path: "frankfurter")
    /// One query per provider storing (PIVOT, quote) rows, one per currency for those storing (foreign, PIVOT):
    /// ECB, FRED, CNB, RB, RBA; BOC 6, NBP 7, CBR 4.
    static let queries = 22
    /// The orientation probe's requests of a first sync (`FrankfurterOrientationProbe`): one `base=PIVOT` per
    /// provider, and one `base=FOREIGN&quotes=PIVOT` for each currency the first leaves open.
    static let probes = 49

    /// The rows the API can echo: all but NBP's (AED, PLN), a pegged base Frankfurter answers [] for with providers=,
    /// which the mirror holds as the derived (PLN, AED) rows instead.
    static func csvRows(_ text: String) -> Set<FrankfurterRowRecord> {
        let rows = text.split(whereSeparator: \.isNewline).dropFirst().map { line -> FrankfurterRowRecord in
            let fields = line.split(separator: ",").map(String.init)
            return FrankfurterRowRecord(provider: fields[0], date: fields[1], base: fields[2], quote: fields[3], rate: fields[4])
        }
        return Set(rows.filter { !($0.provider == "NBP" && $0.base == "AED") })
    }

    /// The stored rows but the derived ones.
    static func echoed(_ rows: Set<FrankfurterRowRecord>) -> Set<FrankfurterRowRecord> {
        rows.filter { !($0.provider == "NBP" && $0.quote == "AED") }
    }

    static func sampleRows() throws -> String {
        try String(contentsOf: folder.appending(path: "rows.csv"), encoding: .utf8)
    }

    static func stored(_ larder: TestLarder) throws -> Set<FrankfurterRowRecord> {
        Set(try Store(directory: larder.cacheDirectory, logger: quietLogger).frankfurterRows())
    }

    /// A Larder mirroring the sample upstream's root, `faults` set before it starts (its start-up sync is the first).
    private func withMirror(
        faults: [String] = [], ttl: Duration = .seconds(86_400), _ body: (TestLarder, SampleUpstreamControl) async throws -> Void
    ) async throws {
        try await withLarder(clock: ManualClock(now: Self.today)) { configuration, upstream in
            for fault in faults { try await upstream.fault(fault) }
            configuration.rates = UpstreamResource(url: upstream.url("/"), format: .frankfurter)
            configuration.ratesSchedule = .ttl
            configuration.ratesTTL = ttl
        } _: { larder, upstream in
            try await body(larder, upstream)
        }
    }

    /// Waits until `/status` says the mirror holds every row of the sample.
    private func mirrored(_ larder: TestLarder, rows: Int = 4463) async throws -> Bool {
        // Generous: a loaded CI machine runs every suite at once; the wait ends as soon as it is done.
        let done = try await eventually(timeout: .seconds(120), every: .milliseconds(100)) {
            try await larder.get("/status").text.contains("8/8 provider(s) synced, \(rows) row(s) mirrored")
        }
        if !done { print(try await larder.get("/status").text) }
        return done
    }

    @Test func theFirstSyncMirrorsEveryRowWithItsDigitsTwoRequestsAtATime() async throws {
        // Each query held 100 ms, so overlapping requests show in the upstream's log.
        try await withMirror(faults: [#"{"path":"/v2/rates","delay_ms":100}"#]) { larder, upstream in
            #expect(try await mirrored(larder), "progress in /status: providers and rows")
            #expect(try Self.echoed(Self.stored(larder)) == Self.csvRows(try Self.sampleRows()), "every row, its digits as published")
            let rates = try await upstream.requests("/v2/rates")
            #expect(rates.total == Self.probes + Self.queries)
            #expect(rates.maxInFlight == 2, "at most 2 in flight, and the 2 used")
            #expect(try await upstream.requests("/v2/providers").total == 1)
            #expect(try await upstream.requests("/v2/currencies").total == 1)

            // v1 is the ECB provider's rows, as Frankfurter's v1 is.
            let latest = try await larder.get("/v1/latest").json
            #expect(latest?["date"] as? String == "2026-11-27")
            let usd = (latest?["rates"] as? [String: Any])?["USD"] as? Double
            let ecbUSD = try Self.sampleRows().split(whereSeparator: \.isNewline).first { $0.hasPrefix("ECB,2026-11-27,EUR,USD,") }
            #expect(usd != nil && usd == ecbUSD.flatMap { Double($0.split(separator: ",")[4]) })
        }
    }

    @Test func aRestartMidSyncContinuesWithoutFetchingAFinishedWindowTwice() async throws {
        // The first query is refused with a wait longer than the mirror waits: the start-up sync stops there.
        let refusal = #"{"path":"/v2/rates","status":429,"headers":{"Retry-After":"3600"},"times":1}"#
        try await withMirror(faults: [refusal]) { larder, upstream in
            // The rates' last error, not any "429" in /status (a duration or a byte count can hold one).
            let failed = try await eventually(timeout: .seconds(120), every: .milliseconds(100)) {
                try await Self.lastRatesError(larder)?.contains("429") == true
            }
            #expect(failed)
            // The stopped sync's figures stay in /status: what it planned, what it did, no estimate.
            let stopped = try Self.mirrorStatus(try await larder.get("/status").json)
            #expect(stopped?["running"] as? Bool == false)
            #expect(stopped?["providers_total"] as? Int == 8)
            #expect(stopped?["seconds_left"] is NSNull)
            #expect((stopped?["requests_done"] as? Int ?? -1) < (stopped?["requests_total"] as? Int ?? 0))
            await larder.stop()
            let finished = try await Store(directory: larder.cacheDirectory, logger: quietLogger).frankfurterFinishedWindows()
            let done = finished.values.reduce(0) { $0 + $1.filter { $0 != "complete" && !$0.hasPrefix("orientation:") }.count }
            #expect(done < Self.queries)
            try await upstream.resetRequests()
            try await larder.start()
            #expect(try await mirrored(larder))
            // The windows not finished, and the probes of providers not judged yet (a provider's verdicts are kept together).
            let asked = try await upstream.requests("/v2/rates").total
            let synced = try Self.mirrorStatus(try await larder.get("/status").json)
            #expect(synced?["providers_complete"] as? Int == 8)
            #expect(synced?["rows"] as? Int == 4463)
            #expect(synced?["requests_done"] as? Int == synced?["requests_total"] as? Int)
            #expect(asked >= Self.queries - done && asked <= Self.probes + Self.queries - done, "no finished window asked again")
            #expect(try Self.echoed(Self.stored(larder)) == Self.csvRows(try Self.sampleRows()))
        }
    }

    /// `/status`'s `resources.rates.mirror`.
    static func mirrorStatus(_ status: [String: Any]?) throws -> [String: Any]? {
        ratesStatus(status)?["mirror"] as? [String: Any]
    }

    /// The message of the rates resource's `last_error` in `/status`; nil when there is none.
    static func lastRatesError(_ larder: TestLarder) async throws -> String? {
        (ratesStatus(try await larder.get("/status").json)?["last_error"] as? [String: Any])?["message"] as? String
    }

    /// The rates resource's entry of a `/status` document.
    private static func ratesStatus(_ status: [String: Any]?) -> [String: Any]? {
        (status?["resources"] as? [String: Any])?["rates"] as? [String: Any]
    }

    @Test func aProviderListedAsEndingAfterTomorrowIsFollowedUpToTomorrow() async throws {
        try await withMirror { larder, upstream in
            #expect(try await mirrored(larder))
            // RBA now lists a row of 2099 (SPEC §4.11: never asked for, never stored) beside a real new
            // day; the ECB publishes 2026-11-28.
            let changed = try Self.sampleRows()
                + "RBA,2099-01-01,AUD,USD,0.6512\nRBA,2026-11-28,AUD,USD,0.63201\nECB,2026-11-28,EUR,USD,1.1901\n"
            try await upstream.put("/frankfurter/rows.csv", changed)
            larder.clock.advance(by: 6 * 3600)
            _ = try await larder.request("POST", "/rates/refresh")
            let mirror = try Self.mirrorStatus(try await larder.get("/status").json)
            #expect((mirror?["skipped"] as? [Any])?.isEmpty == true)
            let bounded = mirror?["bounded"] as? [[String: Any]] ?? []
            #expect(bounded.count == 1)
            #expect(bounded.first?["key"] as? String == "RBA")
            #expect((bounded.first?["reason"] as? String)?.contains("2099-01-01") == true, "\(bounded)")
            #expect(mirror?["providers_complete"] as? Int == 8)
            let stored = try Self.stored(larder)
            #expect(stored.contains(FrankfurterRowRecord(provider: "RBA", date: "2026-11-28", base: "AUD", quote: "USD", rate: "0.63201")))
            #expect(stored.contains(FrankfurterRowRecord(provider: "ECB", date: "2026-11-28", base: "EUR", quote: "USD", rate: "1.1901")))
            #expect(!stored.contains(where: { $0.date == "2099-01-01" }))
            #expect(try await larder.get("/v1/latest").json?["date"] as? String == "2026-11-28")
            let rba = try await larder.get("/v2/rates?providers=RBA&base=AUD&quotes=USD&date=2026-11-28").text
            #expect(rba.contains("0.63201"), "\(rba)")
        }
    }

    @Test func aFirstSyncOnAClockBehindStoresUpToItsTomorrowAndCatchesUpOnceTheClockIsRight() async throws {
        // 2026-10-15: every provider lists days after tomorrow (followed up to 2026-10-16), none starts after it.
        let behind = Self.today.addingTimeInterval(-44 * 86_400)
        try await withLarder(clock: ManualClock(now: behind)) { configuration, upstream in
            configuration.rates = UpstreamResource(url: upstream.url("/"), format: .frankfurter)
            configuration.ratesSchedule = .ttl
            configuration.ratesTTL = .seconds(86_400)
        } _: { larder, _ in
            let early = Self.csvRows(try Self.sampleRows()).filter { $0.date <= "2026-10-16" }
            let synced = try await eventually(timeout: .seconds(120), every: .milliseconds(100)) {
                try await larder.get("/status").text.contains("8/8 provider(s) synced")
            }
            #expect(synced, "every provider's rows up to the clock's tomorrow")
            if !synced { print(try await larder.get("/status").text) }
            let status = try Self.mirrorStatus(try await larder.get("/status").json)
            #expect((status?["bounded"] as? [Any])?.count == 8)
            #expect(try Self.echoed(Self.stored(larder)) == early)
            larder.clock.advance(by: 44 * 86_400)
            _ = try await larder.request("POST", "/rates/refresh")
            #expect(try await mirrored(larder), "the days since, asked once the clock is right")
            #expect(try Self.echoed(Self.stored(larder)) == Self.csvRows(try Self.sampleRows()), "every row, its digits as published")
            #expect((try Self.mirrorStatus(try await larder.get("/status").json)?["bounded"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aProviderStartingAfterTomorrowIsSkippedUntilTheClockReachesIt() async throws {
        // 2026-07-01: every provider starts on 2026-08-03, after tomorrow: nothing to ask yet.
        try await withLarder(clock: ManualClock(now: Self.today.addingTimeInterval(-150 * 86_400))) { configuration, upstream in
            configuration.rates = UpstreamResource(url: upstream.url("/"), format: .frankfurter)
            configuration.ratesSchedule = .ttl
            configuration.ratesTTL = .seconds(86_400)
        } _: { larder, upstream in
            let skipped = try await eventually(timeout: .seconds(120), every: .milliseconds(100)) {
                (try Self.mirrorStatus(try await larder.get("/status").json)?["skipped"] as? [[String: Any]])?.count == 8
            }
            #expect(skipped)
            let reasons = (try Self.mirrorStatus(try await larder.get("/status").json)?["skipped"] as? [[String: Any]] ?? [])
                .compactMap { $0["reason"] as? String }
            #expect(reasons.allSatisfy { $0.contains("starts on 2026-08-03") }, "\(reasons)")
            #expect(try await upstream.requests("/v2/rates").total == 0, "nothing asked before a provider's first day")
            #expect(try Self.stored(larder).isEmpty)
            larder.clock.advance(by: 150 * 86_400)
            _ = try await larder.request("POST", "/rates/refresh")
            #expect(try await mirrored(larder))
            #expect(try Self.echoed(Self.stored(larder)) == Self.csvRows(try Self.sampleRows()))
        }
    }

    @Test func aListedLastDayWithoutRealRowsBeforeItSendsTheProbeToTheUpstreamsLatestDays() async throws {
        // One ECB row of 2099 upstream, and this machine's clock in 2100 (so the row is within bounds): the
        // listing's last 14 days hold that row alone, which proves no orientation. The upstream's latest
        // answer (on its own day, 2026-11-28) shows where its rows end; the probe asks those days.
        let rows = try Self.sampleRows() + "ECB,2099-01-01,EUR,USD,1.5000\n"
        let clock = ManualClock(now: Date(timeIntervalSince1970: 4_102_444_800))
        try await withLarder(clock: clock) { configuration, upstream in
            try await upstream.put("/frankfurter/rows.csv", rows)
            try await upstream.setToday("2026-11-28")
            configuration.rates = UpstreamResource(url: upstream.url("/"), format: .frankfurter)
            configuration.ratesSchedule = .ttl
            configuration.ratesTTL = .seconds(86_400)
        } _: { larder, _ in
            #expect(try await mirrored(larder, rows: 4464))
            let ecb = try Self.stored(larder).filter { $0.provider == "ECB" }
            #expect(!ecb.isEmpty && ecb.allSatisfy { $0.base == "EUR" }, "the ECB's rows as it stores them, (EUR, quote)")
            #expect(try Self.echoed(Self.stored(larder)) == Self.csvRows(rows), "every row, its digits as published")
            let day = try await larder.get("/v1/2026-11-27")
            #expect(day.status == 200)
            #expect((day.json?["rates"] as? [String: Any])?.count == 13, "\(day.text)")
        }
    }

    @Test func a429WithRetryAfterIsWaitedOutAndAskedAgain() async throws {
        try await withMirror(faults: [#"{"path":"/v2/rates","status":429,"headers":{"Retry-After":"1"},"times":1}"#]) { larder, upstream in
            #expect(try await mirrored(larder))
            let rates = try await upstream.requests("/v2/rates")
            #expect(rates.statuses["429"] == 1)
            #expect(rates.total == Self.probes + Self.queries + 1, "the refused query asked again, nothing else twice")
            #expect(try Self.echoed(Self.stored(larder)) == Self.csvRows(try Self.sampleRows()))
        }
    }

    @Test func aRefreshPicksUpALateRowAndNeverRewritesAStoredOne() async throws {
        try await withMirror { larder, upstream in
            #expect(try await mirrored(larder))
            let before = try Self.stored(larder)
            // late.csv: FRED's 2026-11-25 row is new; the ECB's 2026-11-26 USD is a revision of a stored row.
            let late = try String(contentsOf: Self.folder.appending(path: "late.csv"), encoding: .utf8)
            let changed = try Self.sampleRows()
                .replacingOccurrences(of: "ECB,2026-11-26,EUR,USD,1.1843", with: "ECB,2026-11-26,EUR,USD,1.1855")
                + late.split(whereSeparator: \.isNewline).dropFirst().filter { $0.hasPrefix("FRED") }.joined(separator: "\n") + "\n"
            try await upstream.put("/frankfurter/rows.csv", changed)
            try await upstream.resetRequests()
            // Six hours on, every provider whose last day is within the 14-day lookback is asked once (a late row
            // can still come); CBR, quiet since 2026-11-02 and fully stored, costs nothing (its 4 requests).
            larder.clock.advance(by: 6 * 3600)
            _ = try await larder.request("POST", "/rates/refresh")
            #expect(try await upstream.requests("/v2/rates").total == Self.queries - 4, "one request per provider (and currency), none for CBR")
            let after = try Self.stored(larder)
            let fred = FrankfurterRowRecord(provider: "FRED", date: "2026-11-25", base: "USD", quote: "EUR", rate: "0.84168")
            #expect(after.subtracting(before) == [fred])
            #expect(after.contains(FrankfurterRowRecord(provider: "ECB", date: "2026-11-26", base: "EUR", quote: "USD", rate: "1.1843")))
            #expect(try await larder.get("/v1/2026-11-26?symbols=USD").text.contains("1.1843"))
        }
    }
}
