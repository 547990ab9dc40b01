import Foundation
import LarderRates
@testable import LarderRatesCache
import Testing

/// What a cross-check reports and rewrites, from the served day and the other upstreams' answers alone.
@Suite("CrossCheckFindings: the report and the rewrite of one check")
struct CrossCheckFindingsTests {
    static let date = RateDate("2026-11-20")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func day(_ rates: [(String, String)], base: String = "EUR") -> RateSet {
        RateSet(date: date, base: base, rates: rates.map { CurrencyRate(code: $0.0, value: PublishedDecimal($0.1)!) })
    }

    @Test func aMajorityRewritesOnlyTheCurrenciesItOutvotedAndNamesTheOddUpstream() {
        let findings = CrossCheckFindings(
            served: ("a", "ecb", Self.day([("USD", "1.0800"), ("JPY", "162.41"), ("GBP", "0.84370")])),
            others: [
                ("b", "ecb", .day(Self.day([("USD", "1.0862"), ("JPY", "162.41"), ("GBP", "0.8437")]))),
                ("c", "json", .day(Self.day([("USD", "1.0862"), ("JPY", "162.40")]))),
                ("d", "ecb", .unavailable("upstream answered 503 Service Unavailable")),
            ])
        let corrected = findings.corrected
        #expect(corrected?.rates.map(\.value.text) == ["0.84370", "162.41", "1.0862"], "GBP, JPY kept; USD the majority's")
        let report = findings.report(date: Self.date, checkedAt: Self.now, rewritten: true)
        #expect(report.outcome == .disagreed)
        #expect(report.upstreams.map(\.outcome) == [.served, .disagreed, .disagreed, .unavailable])
        #expect(report.upstreams.last?.error == "upstream answered 503 Service Unavailable")
        #expect(report.disagreements.map(\.currency) == ["JPY", "USD"])
        let jpy = report.disagreements[0], usd = report.disagreements[1]
        #expect(jpy.kept == "162.41" && jpy.odd == ["c"])
        #expect(usd.kept == "1.0862" && usd.odd == ["a"])
        #expect(usd.values.map(\.label) == ["a", "b", "c"])
        #expect(usd.values.map(\.value) == ["1.0800", "1.0862", "1.0862"])
        #expect(report.oddUpstreams == ["a", "c"])
    }

    @Test func noAnswerIsUnavailableAndChangesNothing() {
        let findings = CrossCheckFindings(
            served: ("a", "ecb", Self.day([("USD", "1.0800")])),
            others: [("b", "ecb", .unavailable("no rates for 2026-11-20"))])
        #expect(findings.corrected == nil)
        let report = findings.report(date: Self.date, checkedAt: Self.now, rewritten: false)
        #expect(report.outcome == .unavailable)
        #expect(report.disagreements.isEmpty)
    }

    @Test func twoUpstreamsThatDisagreeRewriteNothing() {
        let findings = CrossCheckFindings(
            served: ("a", "ecb", Self.day([("USD", "1.0800")])),
            others: [("b", "ecb", .day(Self.day([("USD", "1.0862")])))])
        #expect(findings.corrected == nil)
        let report = findings.report(date: Self.date, checkedAt: Self.now, rewritten: false)
        #expect(report.outcome == .disagreed)
        #expect(report.disagreements.first?.kept == "1.0800")
        #expect(report.oddUpstreams.isEmpty)
    }
}
