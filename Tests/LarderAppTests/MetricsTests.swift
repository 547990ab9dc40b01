import Foundation
import Glibc
import LarderApp
import LarderConfig
import LarderDocuments
import LarderDocumentsCache
import LarderFreshness
import LarderHTTP
import LarderMetrics
import LarderRatesCache
import LarderTesting
import Testing

/// `withLarder` with rates (`ratesPath`) and the sample documents index, both synced before `body` runs.
func withRatesAndDocuments<T: Sendable>(
    configure: (inout Configuration, SampleUpstreamControl) async throws -> Void = { _, _ in },
    _ body: (TestLarder, SampleUpstreamControl) async throws -> T
) async throws -> T {
    try await withRates { configuration, upstream in
        configuration.documents = UpstreamResource(url: upstream.url("/documents/index.json"), format: .auto)
        configuration.documentsTTL = .seconds(100)
        try await configure(&configuration, upstream)
    } _: { larder, upstream in
        let synced = try await eventually {
            guard let application = larder.application, let rates = application.rates,
                  let documents = application.documents else { return false }
            return rates.refresher.status.lastAttempt != nil && !rates.refresher.isRefreshing
                && documents.refresher.status.lastAttempt != nil && !documents.refresher.isRefreshing
        }
        #expect(synced, "the start-up syncs finished")
        return try await body(larder, upstream)
    }
}

@Suite("/metrics", .serialized)
struct MetricsTests {
    /// The sample upstream's daily file moved back a day: older than the cached copy, so refused as a regression.
    static func dayBefore() throws -> String {
        let file = ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-daily.xml")
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.replacingOccurrences(of: "time='2026-11-20'", with: "time='2026-11-19'")
    }

    @Test func staleHitsCountApartAndEveryUpstreamOutcomeIsCounted() async throws {
        try await withRates { larder, upstream in
            let synced = try await eventually {
                try await upstream.requests(ratesPath).total >= 1 && larder.application?.rates?.refresher.isRefreshing == false
            }
            #expect(synced, "the start-up sync landed: the next requests are hits")
            for _ in 0..<3 { _ = try await larder.get("/rates") }
            _ = try await larder.request("POST", "/rates/refresh")  // 304
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":500,"times":1}"#)
            _ = try await larder.request("POST", "/rates/refresh")  // error
            try await upstream.fault(#"{"path":"\#(ratesPath)","body":"<html>oops</html>","times":1}"#)
            _ = try await larder.request("POST", "/rates/refresh")  // refused
            try await upstream.put(ratesPath, try Self.dayBefore())
            _ = try await larder.request("POST", "/rates/refresh")  // 200, a regression
            try await upstream.fault(#"{"path":"\#(ratesPath)","status":503}"#)
            larder.clock.advance(by: 101)
            _ = await larder.application?.rates?.refresher.refresh()
            for _ in 0..<2 { _ = try await larder.get("/rates") }
            _ = try await larder.get("/nowhere")
            let metrics = try await larder.get("/metrics")
            let text = metrics.text
            #expect(metrics.status == 200)
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(sample(text, #"larder_cache_hits_total{resource="rates"}"#) == 3)
            #expect(sample(text, #"larder_cache_stale_hits_total{resource="rates"}"#) == 2)
            // Exported at 0 before the first miss, so rate() sees the first one.
            #expect(sample(text, #"larder_cache_misses_total{resource="rates"}"#) == 0)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="200"}"#) == 2)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="304"}"#) == 1)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="error"}"#) == 2)
            #expect(sample(text, #"larder_upstream_fetches_total{resource="rates",outcome="refused"}"#) == 1)
            #expect(sample(text, #"larder_upstream_regressions_refused_total{resource="rates"}"#) == 1)
            #expect(sample(text, #"larder_http_requests_total{route="/rates",status="200"}"#) == 5)
            #expect(sample(text, #"larder_http_requests_total{route="unmatched",status="404"}"#) == 1)
            #expect(sample(text, #"larder_http_request_duration_seconds_count{route="/rates"}"#) == 5)
            #expect(sample(text, #"larder_resource_stale{resource="rates"}"#) == 1)
            // The last confirmation was the regression's 200, before the clock moved.
            #expect(sample(text, #"larder_last_success_timestamp_seconds{resource="rates"}"#) == 1_800_000_000)
            #expect(sample(text, #"larder_refresh_consecutive_failures{resource="rates"}"#) == 1)
            #expect(sample(text, #"larder_refresh_duration_seconds_count{resource="rates"}"#) == 6)
            // Only configured resources have series.
            #expect(sample(text, #"larder_cache_hits_total{resource="documents"}"#) == nil)
        }
    }

    @Test func everyFamilyHasTheTablesHelpAndType() async throws {
        try await withRatesAndDocuments { larder, _ in
            _ = try await larder.get("/rates")
            _ = try await larder.get("/metrics")
            let exposition = Exposition(try await larder.get("/metrics").text)
            for family in MetricFamily.allCases {
                #expect(exposition.help[family.name] == [family.help], "\(family.name)")
                #expect(exposition.type[family.name] == [family.kind.rawValue], "\(family.name)")
            }
            #expect(exposition.sampled == Set(MetricFamily.allCases.map(\.name)))
            #expect(exposition.untyped.isEmpty, "\(exposition.untyped)")
            // Whatever the table says, nothing goes out without a description.
            #expect(exposition.type.keys.allSatisfy { exposition.help[$0]?.first?.isEmpty == false })
            #expect(MetricFamily.allCases.allSatisfy { !$0.help.isEmpty })
        }
    }

    @Test func buildInfoNamesTheVersionAndTheLibraryItRunsOn() async throws {
        try await withRates { larder, _ in
            let text = try await larder.get("/metrics").text
            let library = HTTPServer.libraryVersion
            #expect(library.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(library)")
            #expect(HTTPServer.library == "libmicrohttpd \(library)", "what `larder --version` prints")
            #expect(sample(text, #"larder_build_info{version="\#(LarderVersion.current)",libmicrohttpd="\#(library)"}"#) == 1)
            #expect(text.split(separator: "\n").filter { $0.hasPrefix("larder_build_info") }.count == 1)
        }
    }

    /// Larder runs in the test process, so its `process_*` figures are this process's: checked against
    /// what the kernel says now, loosely where other suites running alongside move them.
    @Test func processFiguresAreThisProcesssOwn() async throws {
        raiseOpenFileLimit()
        try await withRates { larder, _ in
            let now = Date().timeIntervalSince1970
            let text = try await larder.get("/metrics").text
            let residentNow = Double(MemoryProbe.read("VmRSS"))
            let openNow = Double(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count)
            var limit = rlimit()
            #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)

            let resident = try #require(sample(text, "process_resident_memory_bytes"))
            #expect(resident > 1_048_576 && resident > residentNow / 2 && resident < residentNow * 2, "\(resident) vs \(residentNow)")
            #expect(try #require(sample(text, "process_virtual_memory_bytes")) > resident)
            let open = try #require(sample(text, "process_open_fds"))
            #expect(open > 0)
            // Suites alongside open and close hundreds of sockets at a time: compare with the kernel's
            // count around a scrape until one falls in a calm moment (a few tries at most).
            var calm: (open: Double, before: Double, after: Double)?
            for _ in 0..<20 where calm == nil {
                let before = Self.openDescriptors()
                let scraped = try #require(sample(try await larder.get("/metrics").text, "process_open_fds"))
                let after = Self.openDescriptors()
                let slack = max(64, max(before, after) / 4)
                if scraped >= min(before, after) - slack, scraped <= max(before, after) + slack {
                    calm = (scraped, before, after)
                }
            }
            #expect(calm != nil, "process_open_fds never near this process's count (\(open) vs \(openNow) at first)")
            let maxFDs = try #require(sample(text, "process_max_fds"))
            #expect(maxFDs == Double(limit.rlim_cur) && open <= maxFDs)
            // Real time, not the application's manual clock: the process started before this test,
            // and within the last hours.
            let start = try #require(sample(text, "process_start_time_seconds"))
            #expect(start <= now && start > now - 6 * 3600, "\(start) vs \(now)")
            // Seconds, not clock ticks: no more than every core busy since the start.
            let cpu = try #require(sample(text, "process_cpu_seconds_total"))
            #expect(cpu > 0 && cpu <= (now - start + 1) * Double(ProcessInfo.processInfo.activeProcessorCount), "\(cpu)")
        }
    }
}

extension MetricsTests {
    /// How many descriptors this process has open now, as the kernel lists them.
    static func openDescriptors() -> Double {
        Double((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0)
    }
}
