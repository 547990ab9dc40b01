import Foundation
@testable import LarderRates
import Testing

@Suite("RatesRequest: the URL each format asks")
struct RatesRequestTests {
    static let ecb = "https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A"
    static let day = RateDate("2026-11-20")!
    /// 2026-11-27T17:25:09Z.
    static let success = Date(timeIntervalSince1970: 1_795_800_309)

    static func url(_ base: String, _ format: RatesFormat, _ purpose: RatesRequestPurpose) -> String {
        RatesRequest.url(base: base, format: format, for: purpose)
    }

    @Test func ecbSDMXFirstSyncAsksTheWholeHistory() {
        #expect(Self.url(Self.ecb, .ecbSDMX, .refresh(newestStored: nil, lastSuccess: nil))
            == Self.ecb + "?format=csvdata&startPeriod=1999-01-04")
        // The base's own query is kept, and its own start and format win on a first sync.
        #expect(Self.url(Self.ecb + "?startPeriod=2020-01-01&format=csvdata", .ecbSDMX, .refresh(newestStored: nil, lastSuccess: Self.success))
            == Self.ecb + "?startPeriod=2020-01-01&format=csvdata")
        #expect(Self.url(Self.ecb + "?detail=dataonly", .ecbSDMX, .refresh(newestStored: nil, lastSuccess: nil))
            == Self.ecb + "?detail=dataonly&format=csvdata&startPeriod=1999-01-04")
    }

    @Test func ecbSDMXLaterSyncsAskWhatChangedSinceTheLastSuccess() {
        let later = RatesRequestPurpose.refresh(newestStored: Self.day, lastSuccess: Self.success)
        #expect(Self.url(Self.ecb, .ecbSDMX, later) == Self.ecb + "?format=csvdata&updatedAfter=2026-11-27T17%3A25%3A09%2B00%3A00")
        #expect(Self.url(Self.ecb + "?startPeriod=2020-01-01", .ecbSDMX, later)
            == Self.ecb + "?format=csvdata&updatedAfter=2026-11-27T17%3A25%3A09%2B00%3A00")
        #expect(Self.url(Self.ecb, .ecbSDMX, .refresh(newestStored: Self.day, lastSuccess: nil)) == Self.ecb + "?format=csvdata&startPeriod=2026-11-20")
        #expect(Self.url(Self.ecb, .ecbSDMX, .day(Self.day)) == Self.ecb + "?format=csvdata&startPeriod=2026-11-20&endPeriod=2026-11-20")
        #expect(RatesRequest.isIncremental(format: .ecbSDMX, for: later))
        #expect(RatesRequest.revisesPastDays(format: .ecbSDMX, for: later))
        #expect(!RatesRequest.isIncremental(format: .ecbSDMX, for: .refresh(newestStored: nil, lastSuccess: Self.success)))
        #expect(!RatesRequest.isIncremental(format: .ecbSDMX, for: .day(Self.day)))
    }

    @Test func frankfurterAsksRangesFromTheAPIBase() {
        for base in ["https://api.frankfurter.dev/v1/", "https://api.frankfurter.dev/v1"] {
            #expect(Self.url(base, .frankfurter, .refresh(newestStored: nil, lastSuccess: nil)) == "https://api.frankfurter.dev/v1/1999-01-04..")
            #expect(Self.url(base, .frankfurter, .refresh(newestStored: Self.day, lastSuccess: Self.success)) == "https://api.frankfurter.dev/v1/2026-11-20..")
            #expect(Self.url(base, .frankfurter, .day(Self.day)) == "https://api.frankfurter.dev/v1/2026-11-20")
        }
        #expect(Self.url("http://h/v1/?base=USD", .frankfurter, .day(Self.day)) == "http://h/v1/2026-11-20?base=USD")
        let later = RatesRequestPurpose.refresh(newestStored: Self.day, lastSuccess: nil)
        #expect(RatesRequest.isIncremental(format: .frankfurter, for: later))
        #expect(!RatesRequest.revisesPastDays(format: .frankfurter, for: later))
        #expect(!RatesRequest.isIncremental(format: .frankfurter, for: .refresh(newestStored: nil, lastSuccess: nil)))
    }

    @Test(arguments: [RatesFormat.auto, .ecb, .pipe, .json])
    func otherFormatsFetchTheURLAsConfigured(format: RatesFormat) {
        let base = "https://example.test/rates.xml?x=1"
        #expect(Self.url(base, format, .refresh(newestStored: Self.day, lastSuccess: Self.success)) == base)
        #expect(Self.url(base, format, .day(Self.day)) == base)
        #expect(!RatesRequest.isIncremental(format: format, for: .refresh(newestStored: Self.day, lastSuccess: Self.success)))
    }
}
