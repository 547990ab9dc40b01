import Foundation
import LarderRates
import LarderTesting
import Testing

/// The sample upstream's ECB data API over the ECB XML files it holds.
@Suite("Sample upstream: the ECB data API's CSV")
struct SDMXRoutesTests {
    static let hist = "/rates/eurofxref-hist-90d.xml"

    static func fetch(_ port: Int, _ target: String) async throws -> TestResponse {
        try await onThread { try TestConnection.fetch(port: port, target) }
    }

    @Test func servesTheFilesDaysAsCSVWithinThePeriod() async throws {
        try await withSampleUpstream { upstream in
            let all = try await Self.fetch(upstream.port, "/sdmx" + Self.hist + "?format=csvdata&startPeriod=1999-01-04")
            #expect(all.status == 200)
            #expect(all.header("Content-Type") == "text/csv")
            #expect(all.text.hasPrefix("KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,"))
            let xml = Array(try Data(contentsOf: ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-hist-90d.xml")))
            let expected = try RatesParser.parse(xml, format: .ecb, fetchedAt: Date()).sets
            // Larder's own reader takes back exactly the days and digits of the XML.
            #expect(try RatesParser.parse(all.body, format: .auto, fetchedAt: Date()).sets == expected)

            let newest = try #require(expected.last?.date)
            let one = try await Self.fetch(upstream.port, "/sdmx\(Self.hist)?format=csvdata&startPeriod=\(newest)&endPeriod=\(newest)")
            #expect(try RatesParser.parse(one.body, format: .ecbSDMX, fetchedAt: Date()).sets == [expected.last!])
            let none = try await Self.fetch(upstream.port, "/sdmx\(Self.hist)?startPeriod=2999-01-01")
            #expect(none.status == 404)
        }
    }

    @Test func updatedAfterAnswers304UntilADayIsRevised() async throws {
        try await withSampleUpstream { upstream in
            let since = Date()
            let query = "/sdmx\(Self.hist)?format=csvdata&updatedAfter=" + RFC3339Text.encoded(since)
            let quiet = try await Self.fetch(upstream.port, query)
            #expect(quiet.status == 304)
            #expect(quiet.body.isEmpty)
            try await upstream.reviseSDMX(Self.hist, day: "2026-11-17", rates: ["USD": "1.2345"], at: since + 5)
            let changed = try await Self.fetch(upstream.port, query)
            #expect(changed.status == 200)
            let sets = try RatesParser.parse(changed.body, format: .ecbSDMX, fetchedAt: Date()).sets
            #expect(sets.map(\.date.description) == ["2026-11-17"])
            #expect(sets.first?.rates.first { $0.code == "USD" }?.value.text == "1.2345")
            #expect(sets.first?.rates.count ?? 0 > 1, "the revised day is served whole")
            let answers = try await upstream.sdmxAnswers(Self.hist)
            #expect(answers.map(\.status) == [304, 200])
            #expect(answers.last?.bytes == changed.body.count)
        }
    }
}

/// An instant as `updatedAfter` takes it: RFC 3339 with an offset, `:` and `+` percent-encoded.
enum RFC3339Text {
    static func encoded(_ instant: Date) -> String {
        let seconds = Int(instant.timeIntervalSince1970)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            .replacingOccurrences(of: "Z", with: "+00:00")
            .replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "+", with: "%2B")
    }
}
