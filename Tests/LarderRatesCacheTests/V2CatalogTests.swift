import Foundation
import LarderConfig
import LarderRates
@testable import LarderRatesAPI
import LarderTesting
import Testing

/// Frankfurter v2's metadata routes over a small stored history: exact bodies, Frankfurter's
/// errors, and the paths its router answers the same.
@Suite("Rates: Frankfurter v2 currencies, currency, providers and the /v2 index", .serialized)
struct V2CatalogTests {
    /// HRK drops out after the 17th (as a currency leaving the feed does); GBP anchors FKP and the other pegs.
    static let days: [(String, [(String, String)])] = [
        ("2026-12-16", [("USD", "1.0500"), ("GBP", "0.8400"), ("HRK", "7.5345")]),
        ("2026-12-17", [("USD", "1.0510"), ("GBP", "0.8410"), ("HRK", "7.5345")]),
        ("2026-12-18", [("USD", "1.0520"), ("GBP", "0.8420")]),
    ]

    /// 2027-01-15 12:00 UTC, a Friday: the 17 publication days after the 18th are missed (25
    /// December and 1 January, both weekdays, are TARGET holidays).
    static let now = Date(timeIntervalSince1970: 1_800_014_400)

    static func withFeed<T: Sendable>(
        now: Date = now, provider: String? = nil, _ body: (TestLarder) async throws -> T
    ) async throws -> T {
        try await withRatesFeed(ECB.document(days), now: now) { configuration, _ in
            configuration.ratesProvider = provider
        } _: { larder, _ in
            try await body(larder)
        }
    }

    static let eur = #"{"iso_code":"EUR","iso_numeric":"978","name":"Euro","symbol":"€","start_date":"2026-12-16","end_date":"2026-12-18"}"#
    static let gbp = #"{"iso_code":"GBP","iso_numeric":"826","name":"British Pound","symbol":"£","start_date":"2026-12-16","end_date":"2026-12-18"}"#
    static let hrk = #"{"iso_code":"HRK","iso_numeric":"191","name":"Croatian Kuna","symbol":"kn","start_date":"2026-12-16","end_date":"2026-12-17"}"#
    static let usd = #"{"iso_code":"USD","iso_numeric":"840","name":"United States Dollar","symbol":"$","start_date":"2026-12-16","end_date":"2026-12-18"}"#

    @Test func theIndexAnswersAtV2WithAndWithoutTheSlash() async throws {
        try await Self.withFeed { larder in
            for path in ["/v2", "/v2/", "/v2?anything=1"] {
                let answer = try await larder.get(path)
                #expect(answer.status == 200, "\(path)")
                #expect(answer.text == #"{"version":"v2","status":"current","openapi":"/v2/openapi.json","docs":"https://frankfurter.dev"}"#, "\(path)")
                #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
            }
        }
    }

    @Test func oneCurrencyWithItsDaysAndProvider() async throws {
        try await Self.withFeed { larder in
            let (usd, lower, hrk, eur, extra) = try await (
                larder.get("/v2/currency/USD"), larder.get("/v2/currency/usd"), larder.get("/v2/currency/HRK"),
                larder.get("/v2/currency/EUR"), larder.get("/v2/currency/USD/anything"))
            #expect(usd.status == 200)
            #expect(usd.text == String(Self.usd.dropLast()) + #","providers":["ECB"]}"#)
            #expect(lower.text == usd.text && extra.text == usd.text, "Frankfurter upper-cases the code and ignores the rest of the path")
            #expect(hrk.text == String(Self.hrk.dropLast()) + #","providers":["ECB"]}"#, "a withdrawn currency, its last day its own")
            #expect(eur.text == String(Self.eur.dropLast()) + #","providers":["ECB"]}"#, "the base is a currency of every day")
            #expect(usd.header("ETag") != nil && usd.header("Content-Type") == "application/json; charset=utf-8")
        }
    }

    @Test func aPeggedCurrencyTakesItsAnchorsDaysAndNamesThePeg() async throws {
        try await Self.withFeed { larder in
            let (bmd, fkp, aed) = try await (
                larder.get("/v2/currency/bmd"), larder.get("/v2/currency/FKP"), larder.get("/v2/currency/AED"))
            #expect(bmd.text == #"{"iso_code":"BMD","iso_numeric":"060","name":"Bermudian Dollar","symbol":"$","start_date":"2026-12-16","end_date":"2026-12-18","providers":[],"peg":{"base":"USD","rate":1.0,"authority":"Bermuda Monetary Authority"}}"#)
            #expect(fkp.json?["peg"] as? [String: Any] != nil && fkp.json?["providers"] as? [String] == [])
            #expect(aed.text.contains(#""peg":{"base":"USD","rate":3.6725,"authority":"Central Bank of the UAE"}"#))
        }
    }

    @Test func unknownCurrenciesAndCSVPathsAreFrankfurtersErrors() async throws {
        try await Self.withFeed { larder in
            let (unknown, unanchored, csv, listCSV, providersCSV) = try await (
                larder.get("/v2/currency/XYZ"), larder.get("/v2/currency/MOP"), larder.get("/v2/currency/USD.csv"),
                larder.get("/v2/currencies.csv"), larder.get("/v2/providers.csv"))
            #expect(unknown.status == 404 && unknown.text == #"{"status":404,"message":"not found"}"#)
            #expect(unanchored.status == 404, "MOP is pegged to HKD, which is not stored")
            for answer in [csv, listCSV, providersCSV] {
                #expect(answer.status == 406 && answer.text.isEmpty)
            }
        }
    }

    @Test func theListsActiveAllAndByProvider() async throws {
        try await Self.withFeed { larder in
            let (active, all, byProvider, otherProvider, empty, prefix) = try await (
                larder.get("/v2/currencies"), larder.get("/v2/currencies?scope=all"),
                larder.get("/v2/currencies?providers=ecb,oxr"), larder.get("/v2/currencies?providers=OXR"),
                larder.get("/v2/currencies?providers="), larder.get("/v2/currencies/x?scope=all"))
            let codes = try #require(all.list?.compactMap { $0["iso_code"] as? String })
            // Pegged to USD, EUR or GBP: the pegs whose anchor is stored.
            #expect(codes == ["AED", "ANG", "BAM", "BHD", "BMD", "CVE", "EUR", "FKP", "GBP", "GGP", "HRK", "IMP", "JEP",
                              "JOD", "OMR", "QAR", "SAR", "SHP", "TMT", "USD", "XAF", "XOF"])
            #expect(all.text.contains(Self.hrk) && all.text.contains(Self.usd))
            #expect(all.text.contains(#"{"iso_code":"GGP","iso_numeric":"","name":"Guernsey Pound","symbol":"£","start_date":"2026-12-16","end_date":"2026-12-18"}"#))
            #expect(active.text == all.text, "every day is within 30 days of today")
            #expect(byProvider.text == "[" + [Self.eur, Self.gbp, Self.hrk, Self.usd].joined(separator: ",") + "]",
                    "a provider's own currencies, no pegs")
            #expect(otherProvider.text == "[]" && empty.text == "[]")
            #expect(prefix.text == all.text)
        }
    }

    @Test func aCurrencyLeavesTheDefaultListThirtyDaysAfterItsLastDay() async throws {
        // 2027-01-17 12:00 UTC: the 17th is 31 days back, the 18th 30.
        try await Self.withFeed(now: Date(timeIntervalSince1970: 1_800_187_200)) { larder in
            let active = try await larder.get("/v2/currencies")
            let codes = active.list?.compactMap { $0["iso_code"] as? String }
            #expect(codes?.contains("HRK") == false && codes?.contains("USD") == true && codes?.contains("BMD") == true)
        }
    }

    @Test func theProviderIsWhoPublishesWithTheDaysMissedByTheCalendar() async throws {
        try await Self.withFeed { larder in
            let providers = try await larder.get("/v2/providers")
            #expect(providers.status == 200)
            #expect(providers.text == #"[{"key":"ECB","name":"European Central Bank","country_code":"EU","rate_type":"reference rate","pivot_currency":"EUR","data_url":"https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html","terms_url":"https://www.ecb.europa.eu/services/using-our-site/disclaimer/html/index.en.html","start_date":"2026-12-16","end_date":"2026-12-18","publish_cadence":"daily","publishes_missed":17,"currencies":["EUR","GBP","HRK","USD"]}]"#)
            let extra = try await larder.get("/v2/providers/extra")
            #expect(extra.status == 404 && extra.text == #"{"status":404,"message":"not found"}"#)
        }
    }

    @Test func aConfiguredProviderNamesTheFeed() async throws {
        try await Self.withFeed(provider: "BANK") { larder in
            let (providers, usd, mine) = try await (
                larder.get("/v2/providers"), larder.get("/v2/currency/USD"), larder.get("/v2/currencies?providers=bank"))
            #expect(providers.text == #"[{"key":"BANK","name":"BANK","country_code":null,"rate_type":null,"pivot_currency":"EUR","data_url":null,"terms_url":null,"start_date":"2026-12-16","end_date":"2026-12-18","publish_cadence":null,"publishes_missed":null,"currencies":["EUR","GBP","HRK","USD"]}]"#)
            #expect(usd.json?["providers"] as? [String] == ["BANK"])
            #expect(mine.list?.count == 4)
        }
    }

    @Test func thePegTableReadsWhole() {
        #expect(CurrencyPeg.all.count == 21 && CurrencyPeg.all.map(\.quote) == CurrencyPeg.all.map(\.quote).sorted())
        #expect(CurrencyPeg.all.allSatisfy { $0.since != .firstDay && (Double($0.rate) ?? 0) > 0 }, "every date and rate parses")
        #expect(V2Peg.all.map(\.quote) == CurrencyPeg.all.map(\.quote) && V2Peg.find("XOF")?.rate == 655.957)
    }

    @Test func publicationDaysSkipWeekendsAndTARGETHolidays() {
        func day(_ text: String) -> RateDate { RateDate(text)! }
        #expect(V2Catalog.publicationDays(after: day("2026-12-18"), before: day("2027-01-15")) == 17)
        #expect(V2Catalog.publicationDays(after: day("2026-12-18"), before: day("2026-12-21")) == 0)
        #expect(V2Catalog.publicationDays(after: day("2026-12-18"), before: day("2026-12-18")) == 0)
        #expect(V2Catalog.publicationDays(after: day("2014-04-17"), before: day("2014-04-23")) == 1, "Good Friday and Easter Monday")
    }
}

/// The metadata routes over the ECB's real 90-day file, when present.
@Suite("Rates: Frankfurter v2 metadata over the ECB's 90-day history", .serialized, .enabled(if: SharedFixtures.present))
struct V2CatalogFixtureTests {
    @Test func currenciesAndProviderOfTheFile() async throws {
        let feed = try SharedFixtures.text("ecb-hist-90d-2014-03-17_2014-06-13-reindented.xml")
        // 2014-06-20 12:00 UTC, a Friday: four publication days after the file's last (16th to 19th).
        try await withRatesFeed(feed, now: Date(timeIntervalSince1970: 1_403_265_600)) { larder, _ in
            let (providers, ltl, all, byProvider, aed) = try await (
                larder.get("/v2/providers"), larder.get("/v2/currency/LTL"), larder.get("/v2/currencies?scope=all"),
                larder.get("/v2/currencies?providers=ECB"), larder.get("/v2/currency/aed"))
            let codes = ["AUD", "BGN", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HRK", "HUF", "IDR",
                         "ILS", "INR", "JPY", "KRW", "LTL", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "RUB", "SEK",
                         "SGD", "THB", "TRY", "USD", "ZAR"]
            let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
            #expect(providers.text == #"[{"key":"ECB","name":"European Central Bank","country_code":"EU","rate_type":"reference rate","pivot_currency":"EUR","data_url":"https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html","terms_url":"https://www.ecb.europa.eu/services/using-our-site/disclaimer/html/index.en.html","start_date":"2014-03-17","end_date":"2014-06-13","publish_cadence":"daily","publishes_missed":4,"currencies":[\#(list)]}]"#)
            #expect(ltl.text == #"{"iso_code":"LTL","iso_numeric":"440","name":"Lithuanian Litas","symbol":"Lt","start_date":"2014-03-17","end_date":"2014-06-13","providers":["ECB"]}"#)
            #expect(aed.text == #"{"iso_code":"AED","iso_numeric":"784","name":"United Arab Emirates Dirham","symbol":"د.إ","start_date":"2014-03-17","end_date":"2014-06-13","providers":[],"peg":{"base":"USD","rate":3.6725,"authority":"Central Bank of the UAE"}}"#)
            let listed = all.list?.compactMap { $0["iso_code"] as? String } ?? []
            #expect(listed.count == codes.count + CurrencyPeg.all.count, "every peg's anchor is in the file")
            #expect(listed == listed.sorted())
            #expect(byProvider.list?.compactMap { $0["iso_code"] as? String } == codes)
        }
    }
}

extension TestResponse {
    /// The body as a JSON array of objects; nil when it is not one.
    var list: [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]]
    }
}
