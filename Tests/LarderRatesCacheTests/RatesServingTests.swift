import Foundation
import LarderConfig
import LarderFreshness
import LarderHTTP
import LarderTesting
import Testing

@Suite("Rates: the served answers, validators, cross rates, days", .serialized)
struct RatesServingTests {
    static let body = #"{"amount":1,"base":"EUR","date":"2026-11-20","rates":{"CHF":0.9400,"GBP":0.84370,"HUF":310.70,"JPY":162.41,"USD":1.0862}}"#
        + "\n"

    @Test func aColdStartServesTheUpstreamsDayWithCacheHeaders() async throws {
        try await withRatesFeed { larder, upstream in
            let response = try await larder.get("/rates")
            #expect(response.status == 200)
            #expect(response.text == Self.body, "published digits kept: 310.70 stays 310.70")
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("ETag")?.count == 26)
            #expect(response.header("Last-Modified").flatMap(HTTPDate.parse) != nil)
            #expect(response.header("Cache-Control") == "public, max-age=100, stale-while-revalidate=100, stale-if-error=2400")
            #expect(response.header("Age") == "0")
            #expect(response.header("Cache-Status") == "Larder; hit; ttl=100")
            // One `Date`, the prepared answer's (libmicrohttpd adds none beside it), not before `Last-Modified`.
            #expect(response.values("Date").count == 1)
            let date = try #require(response.header("Date").flatMap(HTTPDate.parse))
            #expect(try #require(response.header("Last-Modified").flatMap(HTTPDate.parse)) <= date)
        }
    }

    @Test func validatorsAnswer304AndHeadHasNoBody() async throws {
        try await withRatesFeed { larder, upstream in
            let full = try await larder.get("/rates")
            let etag = try #require(full.header("ETag"))
            let lastModified = try #require(full.header("Last-Modified"))
            let byTag = try await larder.get("/rates", headers: [("If-None-Match", etag)])
            let byWeakList = try await larder.get("/rates", headers: [("If-None-Match", "\"x\", W/\(etag)")])
            let byDate = try await larder.get("/rates", headers: [("If-Modified-Since", lastModified)])
            let tagWins = try await larder.get(
                "/rates", headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", lastModified)])
            let head = try await larder.request("HEAD", "/rates")
            let currencies = try await larder.get("/currencies")
            let currencies304 = try await larder.get(
                "/currencies", headers: [("If-None-Match", currencies.header("ETag") ?? "")])
            for answer in [byTag, byWeakList, byDate] {
                #expect(answer.status == 304)
                #expect(answer.body.isEmpty)
                #expect(answer.header("ETag") == etag)
                #expect(answer.header("Last-Modified") == lastModified)
                #expect(answer.header("Cache-Status") == "Larder; hit; ttl=100")
            }
            #expect(tagWins.status == 200)
            #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == etag)
            #expect(currencies304.status == 304)
        }
    }

    @Test func currenciesListTheStoredCodes() async throws {
        try await withRatesFeed { larder, upstream in
            let response = try await larder.get("/currencies")
            #expect(response.status == 200)
            // Frankfurter's names, from the ISO 4217 table it uses; the ECB's feed names none.
            #expect(response.text == #"{"CHF":"Swiss Franc","EUR":"Euro","GBP":"British Pound","HUF":"Hungarian Forint","JPY":"Japanese Yen","USD":"United States Dollar"}"# + "\n")
        }
    }

    @Test func crossRatesAndAmountsMatchHandComputedValues() async throws {
        try await withRatesFeed { larder, upstream in
            let (usd, aliases, chf, huge, eurAmount, one) = try await (
                larder.get("/rates?base=USD&symbols=GBP,JPY,EUR&amount=100"),
                larder.get("/rates?from=usd&to=gbp,jpy,eur&amount=100"),
                larder.get("/rates?base=USD&symbols=CHF&amount=2.5"),
                larder.get("/rates?base=USD&symbols=JPY&amount=1000000000"),
                larder.get("/rates?amount=100&symbols=USD,HUF"), larder.get("/rates?base=USD&symbols=EUR")
            )
            // 100 × 0.84370 / 1.0862 = 77.67446…, 100 × 162.41 / 1.0862 = 14952.126…, 100 / 1.0862 = 92.064…
            #expect(usd.text == #"{"amount":100,"base":"USD","date":"2026-11-20","rates":{"EUR":92.0641,"GBP":77.6745,"JPY":14952.1}}"# + "\n")
            #expect(aliases.text == usd.text)
            #expect(usd.header("ETag") != nil && usd.header("Cache-Status") == "Larder; hit; ttl=100")
            // 2.5 × 0.9400 / 1.0862 = 2.1635058…
            #expect(chf.text.contains(#""rates":{"CHF":2.16351}"#))
            // Integer digits are never rounded away: 149521266801.69… → 149521266802.
            #expect(huge.text.contains(#""JPY":149521266802}"#))
            #expect(eurAmount.text == #"{"amount":100,"base":"EUR","date":"2026-11-20","rates":{"HUF":31070,"USD":108.62}}"# + "\n")
            // 1 / 1.0862 = 0.92064076…
            #expect(one.text.contains(#""rates":{"EUR":0.920641}"#))
        }
    }

    @Test func aRepeatedConversionIsServedPreparedUntilTheDayChanges() async throws {
        try await withRatesFeed { larder, upstream in
            let target = "/rates?base=USD&symbols=GBP"
            let first = try await larder.get(target)
            larder.clock.advance(by: 30)
            let again = try await larder.get(target)
            let revalidated = try await larder.get(target, headers: [("If-None-Match", first.header("ETag") ?? "")])
            // The whole query inside one value is not the same query, whatever its text looks like.
            let packed = try await larder.get("/rates?base=USD%26symbols%3DGBP")
            let invalid = try await larder.get("/rates?base=USD&symbols=QQQ")
            let invalidAgain = try await larder.get("/rates?base=USD&symbols=QQQ")
            try await upstream.put(ratesFeedPath, ECB.document([("2026-11-21", [("USD", "1.2000"), ("GBP", "0.9000")])]))
            let refresh = try await larder.request("POST", "/rates/refresh")
            let newDay = try await larder.get(target)
            #expect(first.text == #"{"amount":1,"base":"USD","date":"2026-11-20","rates":{"GBP":0.776745}}"# + "\n")
            #expect(again.text == first.text && again.header("ETag") == first.header("ETag"))
            #expect(again.header("Age") == "30", "the prepared conversion still carries the current cache headers")
            #expect(again.header("Cache-Status") == "Larder; hit; ttl=70")
            #expect(revalidated.status == 304)
            #expect(packed.status == 400)
            #expect(invalid.status == 422 && invalidAgain.status == 422)
            #expect(refresh.status == 200)
            #expect(newDay.text == #"{"amount":1,"base":"USD","date":"2026-11-21","rates":{"GBP":0.75}}"# + "\n")
            #expect(newDay.header("ETag") != first.header("ETag"))
        }
    }

    @Test(arguments: [
        ("/rates?base=XYZ", 422, "unprocessable"),
        ("/rates?symbols=USD,QQQ", 422, "unprocessable"),
        ("/rates?base=US", 400, "bad_request"),
        ("/rates?base=", 400, "bad_request"),
        ("/rates?symbols=", 400, "bad_request"),
        ("/rates?symbols=USD,,JPY", 400, "bad_request"),
        ("/rates?amount=", 400, "bad_request"),
        ("/rates?amount=abc", 400, "bad_request"),
        ("/rates?amount=-5", 400, "bad_request"),
        ("/rates?amount=1e3", 400, "bad_request"),
        ("/rates?amount=1,5", 400, "bad_request"),
        ("/rates?amount=0", 422, "unprocessable"),
        ("/rates?amount=NaN", 400, "bad_request"),
        ("/rates?base=USD&from=USD", 400, "bad_request"),
        ("/rates?base=USD&base=GBP", 400, "bad_request"),
        ("/rates?callback=x", 400, "bad_request"),
        ("/rates?base=%00SD", 400, "bad_request"),
        ("/rates/2026-13-01", 400, "bad_request"),
        ("/rates/2026-02-30", 400, "bad_request"),
        ("/rates/latest", 400, "bad_request"),
        ("/rates/2026-11-20?foo=1", 400, "bad_request"),
    ])
    func badQueriesAnswerJSONErrors(target: String, status: Int, code: String) async throws {
        try await withRatesFeed { larder, upstream in
            let response = try await larder.get(target)
            #expect(response.status == status)
            #expect(response.errorCode == code)
            #expect(response.header("Cache-Control") == "no-store")
        }
    }

    @Test func daysResolveToTheLatestStoredDayOnOrBefore() async throws {
        try await withRatesFeed(ECB.document([
            ("2026-11-20", ECB.rates), ("2026-11-19", [("USD", "1.0800"), ("JPY", "160.00")]),
            ("2026-11-17", [("USD", "1.0700"), ("JPY", "159.00")]),
        ])) { larder, upstream in
            let (exact, gap, weekend, before, converted) = try await (
                larder.get("/rates/2026-11-19"), larder.get("/rates/2026-11-18"), larder.get("/rates/2026-11-22"),
                larder.get("/rates/2026-11-16"), larder.get("/rates/2026-11-19?base=USD&symbols=JPY")
            )
            let revalidated = try await larder.get("/rates/2026-11-19", headers: [("If-None-Match", exact.header("ETag") ?? "")])
            #expect(exact.text == #"{"amount":1,"base":"EUR","date":"2026-11-19","rates":{"JPY":160.00,"USD":1.0800}}"# + "\n")
            #expect(exact.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(gap.text.contains(#""date":"2026-11-17""#))
            #expect(gap.header("Cache-Control")?.contains("immutable") == true)
            #expect(weekend.text == Self.body, "after the newest day: the newest day, not immutable")
            #expect(weekend.header("Cache-Control") == "public, max-age=100, stale-while-revalidate=100, stale-if-error=2400")
            #expect(before.status == 404 && before.errorCode == "not_found")
            // 160.00 / 1.0800 = 148.148148…
            #expect(converted.text.contains(#""rates":{"JPY":148.148}"#))
            #expect(revalidated.status == 304)
        }
    }

    @Test func postRoutesNeedTheAdminToken() async throws {
        try await withRatesFeed { configuration, upstream in
            configuration.adminToken = "s3cret"
        } _: { larder, upstream in
            _ = try await larder.get("/rates")
            let none = try await larder.request("POST", "/rates/refresh")
            let wrong = try await larder.request("POST", "/rates/refresh", headers: [("Authorization", "Bearer s3cre")])
            let right = try await larder.request("POST", "/rates/refresh", headers: [("Authorization", "Bearer s3cret")])
            let get = try await larder.request("GET", "/rates/refresh")
            #expect(none.status == 401 && none.errorCode == "unauthorized")
            #expect(none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(wrong.status == 401)
            #expect(right.status == 200)
            #expect(right.json?["outcome"] as? String == "not_modified")
            #expect(get.status == 400, "GET /rates/refresh reads 'refresh' as a date")
        }
    }
}
