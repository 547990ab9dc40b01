import Crypto
import Foundation
@testable import LarderApp
import LarderConfig
import LarderRates
import LarderFreshness
import LarderHTTP
import LarderRatesCache
import LarderTesting
import Testing

@Suite("The status page at /", .serialized)
struct StatusPageTests {
    @Test func isOneSelfContainedDocumentUnderAPolicyPinningItsOwnScriptAndStyle() async throws {
        try await withStatusPage { larder, _ in
            let page = try await larder.page("/", headers: [("Origin", "https://elsewhere.example")])
            let text = page.text
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(page.header("Cache-Control") == "no-cache")
            #expect(page.header("Access-Control-Allow-Origin") == nil, "no other origin may read the page")
            #expect(text.hasPrefix("<!doctype html>\n<html lang=\"en\">\n"))
            let policy = try #require(page.header("Content-Security-Policy"))
            let script = try #require(between(text, "<script>", "</script>"))
            let style = try #require(between(text, "<style>", "</style>"))
            #expect(policy.hasPrefix("default-src 'none'; "))
            #expect(policy.contains("script-src '\(Self.hash(script))'"), "the hash of the script's bytes as served")
            #expect(policy.contains("style-src '\(Self.hash(style))'"), "the hash of the stylesheet's bytes as served")
            for directive in ["connect-src 'self'", "img-src 'self' data:", "form-action 'self'", "base-uri 'none'",
                              "frame-ancestors 'none'"] {
                #expect(policy.contains(directive))
            }
            #expect(!policy.contains("unsafe") && !policy.contains("http"))
            #expect(occurrences(of: "<script", in: text) == 1 && occurrences(of: "<style", in: text) == 1)
            #expect(!text.contains(" src=") && !style.contains("url(") && !style.contains("@import"))
            let targets = text.matches(of: #/ (?:href|action)="([^"]*)"/#).map { String($0.output.1) }
            #expect(!targets.isEmpty)
            for target in targets {
                #expect(target.hasPrefix("/") || target.hasPrefix("#") || target == "data:,", "\(target) stays on this origin")
            }
        }
    }

    @Test func isRenderedOnceAndRevalidatedByItsETagUntilSomethingChanges() async throws {
        try await withStatusPage { larder, _ in
            let first = try await larder.page("/")
            let second = try await larder.page("/")
            let etag = try #require(first.header("ETag"))
            #expect(second.header("ETag") == etag && second.body == first.body, "nothing changed: the same bytes")
            let notModified = try await larder.page("/", headers: [("If-None-Match", etag)])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.header("ETag") == etag)
            #expect(notModified.header("Content-Security-Policy") == first.header("Content-Security-Policy"))
            let head = try await larder.request("HEAD", "/", headers: [("Accept", "text/html")])
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("ETag") == etag)
            #expect(head.header("Content-Length") == String(first.body.count))
            // A refresh is news even when the rates are the same: its attempt is shown.
            larder.clock.advance(by: 10)
            #expect(try await larder.post("/rates/refresh").status == 200)
            let after = try await larder.page("/", headers: [("If-None-Match", etag)])
            #expect(after.status == 200)
            #expect(after.header("ETag") != etag)
        }
    }

    /// The route as the server runs it: a page is rendered off the server's threads the first time,
    /// then every request shares that one prepared response.
    @Test func aPageIsRenderedOnceAndShared() async throws {
        try await withStatusPage { larder, _ in
            let application = try #require(larder.application)
            let pages = StatusPages(
                reporter: StatusReporter(
                    configuration: application.configuration, rates: application.rates,
                    documents: application.documents, startedAt: Date()),
                adminTokenRequired: false, blocking: application.blocking)
            let request = Request(method: .get, rawPath: "/", segments: [])
            guard case .later(let render) = pages.answer(request) else {
                Issue.record("the first request renders, off the server's thread")
                return
            }
            let first = try #require(await render(request).prepared)
            guard case .now(let again) = pages.answer(request) else {
                Issue.record("the second request is answered at once")
                return
            }
            #expect(again.prepared === first)
        }
    }

    @Test func showsEveryCurrencyEveryStoredDayAndEveryDocument() async throws {
        try await withStatusPage { larder, _ in
            let page = try await larder.page("/").text
            let rates = jsonRates(try await larder.get("/rates").text)
            let rows = tableRates(page)
            #expect(rates.count == 30)
            #expect(rows.count == rates.count, "one row per currency")
            for row in rows {
                #expect(rates[row.code] == row.rate, "\(row.code) as /rates has it")
            }
            // The change against the stored day before, from the numbers /rates/{date} answers.
            let previous = jsonRates(try await larder.get("/rates/2026-11-19").text)
            for row in rows {
                let expected = PageFormat.change(from: Decimal(string: previous[row.code] ?? "")!, to: Decimal(string: row.rate)!)
                #expect(row.change == expected.text, "\(row.code)'s change")
            }
            let counts = ((try await larder.get("/status")).json?["resources"] as? [String: Any])
                .flatMap { $0["rates"] as? [String: Any] }?["counts"] as? [String: Any]
            let days = try #require(counts?["days"] as? Int)
            #expect(days == 5)
            #expect(occurrences(of: "<circle cx=", in: page) == days, "one point per stored day")
            let series = try await larder.get("/rates/2026-11-16..?symbols=USD").text
            let points = series.matches(of: #/"(\d{4}-\d{2}-\d{2})":\{"USD":([0-9.]+)\}/#)
            #expect(points.count == days)
            for point in points {
                #expect(page.contains("<title>\(point.output.1): \(point.output.2)</title>"), "the point of \(point.output.1)")
            }
            #expect(page.contains("<title id=\"chart-title\">USD for 1 EUR, 2026-11-16 to 2026-11-20</title>"))
            let names = try #require((try await larder.get("/documents")).json?["documents"] as? [[String: Any]])
                .compactMap { $0["name"] as? String }
            #expect(names.count == 5)
            for name in names {
                #expect(page.contains("<th scope=\"row\"><a href=\"/documents/\(name)\">\(name)</a></th>"))
            }
            #expect(occurrences(of: "<span class=\"badge fresh\">Mirrored</span>", in: page) == names.count)
        }
    }

    @Test func theBaseAndChartCurrencyAreChosenByQueryAndABadQueryIsRefused() async throws {
        try await withStatusPage { larder, _ in
            let page = try await larder.page("/?base=usd&currency=JPY")
            #expect(page.status == 200)
            let converted = jsonRates(try await larder.get("/rates?base=USD").text)
            let rows = tableRates(page.text)
            #expect(rows.count == converted.count && rows.contains { $0.code == "EUR" })
            for row in rows {
                #expect(converted[row.code] == row.rate, "\(row.code) as /rates?base=USD has it")
            }
            #expect(page.text.contains("units of each currency for 1 USD"))
            #expect(page.text.contains("<option value=\"USD\" selected>"))
            #expect(page.text.contains("<title id=\"chart-title\">JPY for 1 USD"))
            // The chart's currency equal to the new base: the default currency instead, not an error.
            let same = try await larder.page("/?base=USD&currency=USD")
            #expect(same.status == 200)
            #expect(same.text.contains("<title id=\"chart-title\">EUR for 1 USD"))
            let refusals = [
                ("/?base=XYZ", "unknown currency 'XYZ'"), ("/?base=US", "not a currency code"),
                ("/?currency=ABC", "unknown currency 'ABC'"), ("/?base=USD&base=GBP", "more than once"),
                ("/?page=2", "unknown query parameter 'page'"),
            ]
            for (target, message) in refusals {
                let refused = try await larder.page(target)
                #expect(refused.status == 400, "\(target)")
                #expect(refused.errorCode == "bad_request")
                #expect(refused.header("Cache-Control") == "no-store")
                let said = (refused.json?["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(said.contains(message), "\(target): \(said)")
            }
        }
    }

    @Test func escapesEveryStringAnUpstreamSent() async throws {
        let hostile = #"<img src=x onerror="alert(1)">&'"#
        let feed = "QQQ|\(hostile)|1.0862\nQQZ|Yen</td></tr></table><script>alert(2)</script>|162.41\n"
        try await withStatusPage(ratesPath: "/rates/hostile.txt") { _, upstream in
            try await upstream.put("/rates/hostile.txt", feed)
            try await upstream.fault(#"{"path":"/documents/handbook.txt","status":503}"#)
        } _: { larder, upstream in
            // A refused body whose error message quotes the upstream's bytes.
            try await upstream.put("/rates/hostile.txt", "USD|US dollar|<script>alert(3)</script>\n")
            larder.clock.advance(by: 10)
            #expect(try await larder.post("/rates/refresh").status == 502)
            let page = try await larder.page("/").text
            #expect(!page.contains("<img"))
            #expect(!page.contains("<script>alert") && occurrences(of: "<script", in: page) == 1)
            #expect(!page.contains("</td></tr></table><script>"))
            #expect(page.contains("<td>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</td>"))
            #expect(page.contains("Yen&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
            #expect(page.contains("rate &#39;&lt;script&gt;alert(3)&lt;/script&gt;&#39; for USD"), "the last error, escaped")
            #expect(page.contains("<span class=\"badge stale\">Failed</span>"), "the failed document, with why")
        }
    }

    @Test func followsNewDataAndTheClock() async throws {
        try await withStatusPage { larder, upstream in
            let before = try await larder.page("/")
            let daily = try String(
                contentsOf: ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-daily.xml"), encoding: .utf8)
            try await upstream.put(historyPath, daily
                .replacingOccurrences(of: "time='2026-11-20'", with: "time='2026-11-23'")
                .replacingOccurrences(of: "rate='1.0862'", with: "rate='1.0999'"))
            larder.clock.advance(by: 10)
            #expect(try await larder.post("/rates/refresh").json?["changed"] as? Bool == true)
            let after = try await larder.page("/")
            #expect(after.header("ETag") != before.header("ETag"))
            #expect(after.text.contains("Rates of 2026-11-23"))
            #expect(tableRates(after.text).first { $0.code == "USD" }?.rate == "1.0999")
            #expect(occurrences(of: "<circle cx=", in: after.text) == 6)
            #expect(after.text.contains("<span class=\"badge fresh\">Fresh</span>"))
            // Past the TTL with the upstream failing: stale, and the error in words.
            try await upstream.fault(#"{"path":"\#(historyPath)","status":503}"#)
            larder.clock.advance(by: 101)
            let failed = try await eventually { larder.application?.rates?.refresher.status.lastError != nil }
            #expect(failed)
            let stale = try await larder.page("/").text
            #expect(stale.contains("<span class=\"badge stale\">Stale</span>"))
            #expect(stale.contains("503"))
            #expect(stale.contains("1 failure in a row"))
        }
    }

    @Test func showsTheCrossCheckOfTheNewestDay() async throws {
        let mirrorPath = "/rates/mirror.xml"
        try await withStatusPage { configuration, upstream in
            let daily = try String(
                contentsOf: ChildProcess.examplesUpstream.appendingPathComponent("rates/eurofxref-daily.xml"), encoding: .utf8)
            try await upstream.put(mirrorPath, daily.replacingOccurrences(of: "rate='1.0862'", with: "rate='1.0999'"))
            configuration.rates = UpstreamResource(upstreams: [
                Upstream(url: upstream.url(historyPath), format: .ecb), Upstream(url: upstream.url(mirrorPath), format: .ecb),
            ])
        } _: { larder, upstream in
            let checked = try await eventually {
                larder.application?.rates?.crossCheckReport != nil && larder.application?.rates?.isCrossChecking == false
            }
            try #require(checked)
            let page = try await larder.page("/").text
            let line = try #require(between(page, "<dt>Cross-check</dt><dd>", "</dd>"))
            #expect(line.contains("2026-11-20: the upstreams disagree on 1 currency</span>"))
            #expect(line.contains(
                "<li><strong>USD</strong>: <code>\(upstream.url(historyPath))</code> 1.0862, "
                    + "<code>\(upstream.url(mirrorPath))</code> 1.0999; served 1.0862</li>"))
            #expect(!line.contains("outvoted"), "two upstreams: no majority names an odd one")
        }
    }

    @Test func asksForTheAdminTokenOnlyWhenOneIsConfigured() async throws {
        try await withStatusPage { configuration, _ in
            configuration.adminToken = "s3cret"
        } _: { larder, _ in
            let page = try await larder.page("/").text
            #expect(page.contains("<body data-token=\"required\">"))
            #expect(page.contains("<label for=\"admin-token\">Admin token</label>"))
            #expect(page.contains("<input id=\"admin-token\" name=\"token\" type=\"password\" autocomplete=\"off\""))
            #expect(!page.contains("s3cret"))
        }
        try await withStatusPage { larder, _ in
            let page = try await larder.page("/").text
            #expect(page.contains("<body data-token=\"none\">"))
            #expect(!page.contains("id=\"admin-token\""))
        }
    }

    @Test func saysWhatIsNotConfigured() async throws {
        try await withLarder { larder, _ in
            let page = try await larder.page("/")
            #expect(page.status == 200)
            #expect(occurrences(of: "Not configured: start Larder with", in: page.text) == 2)
            #expect(page.text.contains("The rates are not configured."))
            #expect(try await larder.page("/?base=USD").status == 200, "nothing to check a code against")
            #expect(try await larder.page("/?base=1").status == 400)
        }
    }

    private static func hash(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Array(text.utf8))).base64EncodedString()
    }
}

extension TestLarder {
    /// `GET target` as a browser asks for it: with an `Accept` that names HTML, which chooses the
    /// status page over the root index JSON a program gets from `/`.
    func page(_ target: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await get(target, headers: [("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")] + headers)
    }
}
