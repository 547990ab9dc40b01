import Foundation
import LarderRates
import Testing

@Suite("Real upstream payloads from ../shared/fixtures/rates", .enabled(if: Paths.haveFixtures))
struct FixtureTests {
    @Test func ecbDaily2013() throws {
        let parsed = try RatesParser.parse(try Paths.fixture("ecb-daily-2013-01-28.xml"), format: .ecb, fetchedAt: fetchInstant)
        #expect(parsed.sets.count == 1)
        let set = try #require(parsed.latest)
        #expect(set.date == RateDate("2013-01-28"))
        #expect(set.base == "EUR")
        #expect(set.rates.count == 33)
        #expect(set.texts("USD", "JPY", "CZK", "GBP", "LVL", "IDR") == ["1.3444", "122.21", "25.690", "0.85450", "0.6987", "13011.59"])
        #expect(set.createdAt == nil)
        #expect(set.updatedAt == RateDate("2013-01-28")?.startInstant)
    }

    @Test func ecbDaily2022() throws {
        let parsed = try RatesParser.parse(try Paths.fixture("ecb-daily-2022-07-08.xml"), format: .auto, fetchedAt: fetchInstant)
        let set = try #require(parsed.latest)
        #expect(parsed.sets.count == 1)
        #expect(set.date == RateDate("2022-07-08"))
        #expect(set.rates.count == 31)
        #expect(set.texts("RUB", "USD", "ISK", "MXN", "HUF") == [nil, "1.0163", "139.50", "20.8477", "402.45"])
    }

    @Test func ecbHistory90Days() throws {
        let body = try Paths.fixture("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml")
        let parsed = try RatesParser.parse(body, format: .ecb, fetchedAt: fetchInstant)
        #expect(parsed.sets.count == 62)
        #expect(parsed.sets.first?.date == RateDate("2014-03-17"))
        #expect(parsed.latest?.date == RateDate("2014-06-13"))
        let dates = Set(parsed.sets.map(\.date))
        for holiday in ["2014-04-18", "2014-04-21", "2014-05-01"] {
            #expect(!dates.contains(try #require(RateDate(holiday))))
        }
        #expect(parsed.sets.allSatisfy { $0.rates.count == 32 && $0.base == "EUR" })
        #expect(parsed.sets.allSatisfy { $0.updatedAt == $0.date.startInstant })
        let newest = try #require(parsed.latest)
        #expect(newest.texts("USD", "CZK", "HUF") == ["1.3534", "27.44", "306.6"])
        let oldest = try #require(parsed.sets.first)
        #expect(oldest.texts("USD", "GBP", "NOK") == ["1.3906", "0.83675", "8.28"])
    }

    @Test func openExchangeRatesLatest() throws {
        let body = try Paths.fixture("oxr-latest-2011-10-11T0827Z.json")
        let parsed = try RatesParser.parse(body, format: .auto, fetchedAt: fetchInstant)
        let set = try #require(parsed.latest)
        #expect(parsed.sets.count == 1)
        #expect(set.base == "USD")
        // The file lists 87 rates including "USD": 1, which a USD-based set drops.
        #expect(set.rates.count == 86)
        #expect(set.rate(of: "USD") == 1)
        #expect(set.date == RateDate("2011-10-11"))
        #expect(set.updatedAt == Date(timeIntervalSince1970: 1_318_321_664))
        #expect(set.createdAt == nil)
        #expect(set.texts("EUR", "GBP", "JPY", "VND", "KWD") == ["0.746770219", "0.643004115", "76.8226166", "20833.3333", "0.277029797"])
    }

    @Test func openExchangeRatesHistorical() throws {
        let body = try Paths.fixture("oxr-historical-2012-06-15.json")
        let parsed = try RatesParser.parse(body, format: .json, fetchedAt: fetchInstant)
        let set = try #require(parsed.latest)
        // 159 rates in the file, "USD": 1 among them.
        #expect(set.rates.count == 158)
        #expect(set.date == RateDate("2012-06-15"))
        #expect(set.updatedAt == Date(timeIntervalSince1970: 1_339_802_916))
        #expect(set.texts("EUR", "VND", "XCD", "JPY") == ["0.791277", "20936", "2.7", "78.720001"])
    }

    @Test(arguments: [
        ("ecb-daily-2013-01-28.xml", RatesFormat.ecb),
        ("ecb-daily-2022-07-08.xml", .ecb),
        ("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml", .ecb),
        ("oxr-latest-2011-10-11T0827Z.json", .json),
        ("oxr-historical-2012-06-15.json", .json),
    ])
    func autoDetectsEachFixture(name: String, format: RatesFormat) throws {
        let body = try Paths.fixture(name)
        #expect(RatesParser.detectedFormat(of: body) == format)
        let automatic = try RatesParser.parse(body, format: .auto, fetchedAt: fetchInstant)
        let explicit = try RatesParser.parse(body, format: format, fetchedAt: fetchInstant)
        #expect(automatic.sets == explicit.sets)
    }

    @Test(arguments: ["ecb-daily-2013-01-28.xml", "oxr-latest-2011-10-11T0827Z.json"])
    func wrongExplicitFormatIsRefused(name: String) throws {
        let body = try Paths.fixture(name)
        for format in [RatesFormat.ecb, .json, .pipe] where format != RatesParser.detectedFormat(of: body) {
            #expect(refusal(body, as: format) != nil, "\(name) as \(format)")
        }
    }
}

@Suite("The repository's sample upstream files")
struct ExampleFileTests {
    @Test func dailyXML() throws {
        let parsed = try RatesParser.parse(try Paths.example("eurofxref-daily.xml"), format: .auto, fetchedAt: fetchInstant)
        let set = try #require(parsed.latest)
        #expect(parsed.sets.count == 1)
        #expect(set.date == RateDate("2026-11-20"))
        #expect(set.text(of: "USD") == "1.0862")
        #expect(set.text(of: "HUF") == "385.50")
    }

    @Test func history90DaysXML() throws {
        let parsed = try RatesParser.parse(try Paths.example("eurofxref-hist-90d.xml"), format: .ecb, fetchedAt: fetchInstant)
        #expect(parsed.sets.count > 1)
        #expect(parsed.latest?.date == RateDate("2026-11-20"))
        #expect(zip(parsed.sets, parsed.sets.dropFirst()).allSatisfy { $0.date < $1.date })
    }

    @Test func pipeText() throws {
        let parsed = try RatesParser.parse(try Paths.example("rates.txt"), format: .auto, fetchedAt: fetchInstant)
        let set = try #require(parsed.latest)
        #expect(parsed.sets.count == 1)
        #expect(set.base == "EUR")
        #expect(set.date == RateDate("2026-11-21"))
        #expect(set.updatedAt == nil && set.createdAt == nil)
        #expect(set.rates.count == 30)
        #expect(set.text(of: "USD") == "1.0862")
        #expect(set.rates.first { $0.code == "JPY" }?.name == "Japanese yen")
    }
}
