import Foundation
import LarderApp
import LarderConfig
import LarderFreshness
import LarderHTTP
import LarderRates
import LarderRatesAPI
import LarderRatesCache
import LarderServing
import LarderTesting
import Testing

/// The server's answer memo (`AnswerMemo`, answer_memo.c): a later request that is the same to the
/// route is answered from C with the route's own bytes, the 304 included; new data, any field the memo
/// does not judge, HEAD and an injected clock take the route; metrics count its answers as the route's.
@Suite("The answer memo", .serialized)
struct AnswerMemoTests {
    static let feedPath = "/rates/memo.xml"
    static let day = ECB.document([("2026-11-20", ECB.rates)])
    /// The fields of an answer that do not change from one second to the next.
    static let steady = ["ETag", "Content-Type", "Content-Length", "Last-Modified", "Vary", "Access-Control-Allow-Origin"]

    /// Larder on the system clock, one server thread (one memo), the feed synced.
    func withMemo<T: Sendable>(
        onSystemClock: Bool = true, feed: String = AnswerMemoTests.day,
        _ body: (TestLarder, SampleUpstreamControl) async throws -> T
    ) async throws -> T {
        try await withLarder(onSystemClock: onSystemClock) { configuration, upstream in
            try await upstream.put(Self.feedPath, feed)
            configuration.rates = UpstreamResource(url: upstream.url(Self.feedPath), format: .auto)
            configuration.ratesTTL = .seconds(3600)
            configuration.ratesSchedule = .ttl
            configuration.threads = .fixed(1)
        } _: { larder, upstream in
            let synced = try await eventually {
                guard let rates = larder.application?.rates else { return false }
                return rates.refresher.status.lastSuccess != nil && !rates.refresher.isRefreshing
            }
            try #require(synced, "the start-up sync landed")
            return try await body(larder, upstream)
        }
    }

    func memoAnswers(_ larder: TestLarder) -> Int { larder.application?.server.memoAnswers ?? -1 }

    /// `count` requests on one keep-alive connection; how many of them the memo answered.
    func repeated(
        _ larder: TestLarder, _ target: String, headers: [(String, String)] = [], count: Int = 5
    ) async throws -> (answers: [TestResponse], fromMemo: Int) {
        let before = memoAnswers(larder)
        let port = larder.port
        let answers = try await onThread {
            let connection = try TestConnection(port: port, timeout: .seconds(60))
            return try (0..<count).map { _ in try connection.request("GET", target, headers: headers) }
        }
        return (answers, memoAnswers(larder) - before)
    }

    /// Requests as `repeated` until the memo has answered one (the route answers the first of each
    /// second, so how many that takes depends on the machine's speed), at most 2,000.
    func untilRepeated(
        _ larder: TestLarder, _ target: String, headers: [(String, String)] = []
    ) async throws -> (answers: [TestResponse], fromMemo: Int) {
        var all: [TestResponse] = []
        var fromMemo = 0
        while fromMemo == 0, all.count < 2_000 {
            let burst = try await repeated(larder, target, headers: headers, count: 20)
            all += burst.answers
            fromMemo += burst.fromMemo
        }
        return (all, fromMemo)
    }

    @Test func repeatsCarryTheRoutesBytes() async throws {
        try await withMemo { larder, _ in
            for target in ["/rates", "/rates?base=USD&symbols=GBP,JPY", "/v1/latest", "/v2/rates", "/rates/2026-11-20"] {
                let (answers, fromMemo) = try await untilRepeated(larder, target)
                #expect(fromMemo > 0, "\(target): the memo answered")
                // A field the memo does not judge always takes the route: its answer is the reference.
                let route = try await larder.get(target, headers: [("X-Request-Id", "route")])
                #expect(route.status == 200, "\(target)")
                for answer in answers {
                    #expect(answer.status == 200 && answer.body == route.body, "\(target)")
                    for name in Self.steady { #expect(answer.header(name) == route.header(name), "\(target): \(name)") }
                    let date = answer.header("Date").flatMap { HTTPDate.parse($0) }
                    #expect(date.map { abs($0 - Int(Date().timeIntervalSince1970)) <= 5 } == true, "\(target): Date")
                }
            }
        }
    }

    @Test func conditionalRequestsGetThe304OnlyForTheirETag() async throws {
        try await withMemo { larder, _ in
            let etag = try #require(try await larder.get("/rates").header("ETag"))
            let exact = try await untilRepeated(larder, "/rates", headers: [("If-None-Match", etag)])
            #expect(exact.answers.allSatisfy { $0.status == 304 && $0.body.isEmpty && $0.header("ETag") == etag })
            #expect(exact.fromMemo > 0, "a 304 from the memo")
            let weak = try await untilRepeated(larder, "/rates", headers: [("If-None-Match", "W/" + etag)])
            #expect(weak.answers.allSatisfy { $0.status == 304 } && weak.fromMemo > 0)
            // Another tag, a list or `*`: the route judges them, by RFC 9110's rules.
            let other = try await repeated(larder, "/rates", headers: [("If-None-Match", #""other""#)], count: 5)
            #expect(other.answers.allSatisfy { $0.status == 200 && !$0.body.isEmpty } && other.fromMemo == 0)
            let list = try await repeated(larder, "/rates", headers: [("If-None-Match", #""other", "# + etag)], count: 5)
            #expect(list.answers.allSatisfy { $0.status == 304 } && list.fromMemo == 0)
            let any = try await repeated(larder, "/rates", headers: [("If-None-Match", "*")], count: 5)
            #expect(any.answers.allSatisfy { $0.status == 304 } && any.fromMemo == 0)
            // The 200 is still the memo's afterwards.
            let plain = try await repeated(larder, "/rates", count: 5)
            #expect(plain.answers.allSatisfy { $0.status == 200 && $0.header("ETag") == etag })
        }
    }

    @Test func newDataIsAnsweredAtOnce() async throws {
        try await withMemo { larder, upstream in
            let changes = try #require(larder.application?.rates?.published.changes)
            let generation = changes.current
            _ = try await repeated(larder, "/rates", count: 5)
            try await upstream.put(Self.feedPath, ECB.document([("2026-11-23", ECB.rates)]))
            #expect(try await larder.post("/rates/refresh").status == 200)
            #expect(changes.current > generation, "the refresh counted as a change")
            // Within the second the memo's entry was made in, if the refresh was quick: the new day all the same.
            let after = try await untilRepeated(larder, "/rates")
            #expect(after.answers.allSatisfy { $0.json?["date"] as? String == "2026-11-23" })
            #expect(after.fromMemo > 0, "the new answer is repeated in turn")
        }
    }

    @Test func fieldsTheMemoDoesNotJudgeTakeTheRoute() async throws {
        // Thirty days: a series over 1 KiB, with a gzip variant.
        let month = ECB.document((1...30).map { (String(format: "2026-11-%02d", $0), ECB.rates) })
        try await withMemo(feed: month) { larder, _ in
            let series = "/rates/2026-11-01..2026-11-30"
            let identity = try await repeated(larder, series, count: 5)
            let gzip = try await untilRepeated(larder, series, headers: [("Accept-Encoding", "gzip")])
            #expect(gzip.answers.allSatisfy { $0.header("Content-Encoding") == "gzip" && gunzip($0.body) == identity.answers[0].body })
            #expect(gzip.fromMemo > 0, "a gzip answer is kept for requests asking for gzip alike")
            let again = try await repeated(larder, series, count: 5)
            #expect(again.answers.allSatisfy { $0.header("Content-Encoding") == nil && $0.body == identity.answers[0].body })
            // Each of these changes the answer or is judged by the route alone.
            for (name, value) in [("Range", "bytes=0-9"), ("Origin", "https://app.example"), ("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT"),
                                  ("Authorization", "Bearer x"), ("Cookie", "a=b")] {
                let answers = try await repeated(larder, series, headers: [(name, value)], count: 3)
                #expect(answers.fromMemo == 0, "\(name)")
                #expect(answers.answers.allSatisfy { $0.status == 200 || $0.status == 206 }, "\(name)")
            }
            let origin = try await larder.get(series, headers: [("Origin", "https://app.example")])
            #expect(origin.header("Access-Control-Allow-Origin") == "*")
            let head = try await larder.request("HEAD", "/rates")
            let before = memoAnswers(larder)
            let heads = try await (0..<3).asyncMap { _ in try await larder.request("HEAD", "/rates") }
            #expect(memoAnswers(larder) == before, "HEAD takes the route")
            #expect(heads.allSatisfy { $0.status == 200 && $0.header("Content-Length") == head.header("Content-Length") })
            // Another Host, or two of a field the memo compares: the route.
            let otherHost = try await repeated(larder, "/rates", headers: [("Host", "localhost")], count: 3)
            #expect(otherHost.answers.allSatisfy { $0.status == 200 })
            let twice = try await repeated(larder, "/rates", headers: [("Accept", "*/*"), ("Accept", "text/html")], count: 3)
            #expect(twice.fromMemo == 0)
        }
    }

    @Test func metricsCountTheMemosAnswersAsTheRoutes() async throws {
        try await withMemo { larder, _ in
            let (answers, fromMemo) = try await untilRepeated(larder, "/rates")
            #expect(fromMemo > 0)
            let text = try await larder.get("/metrics").text
            let count = Double(answers.count)
            #expect(sample(text, #"larder_http_requests_total{route="/rates",status="200"}"#) == count)
            #expect(sample(text, #"larder_http_request_duration_seconds_count{route="/rates"}"#) == count)
            #expect(sample(text, #"larder_cache_hits_total{resource="rates"}"#) == count)
            #expect(sample(text, "larder_http_memo_answers_total") == Double(memoAnswers(larder)))
        }
    }

    @Test func anInjectedClockTurnsItOff() async throws {
        try await withMemo(onSystemClock: false) { larder, _ in
            let (answers, fromMemo) = try await repeated(larder, "/rates", count: 10)
            #expect(answers.allSatisfy { $0.status == 200 } && fromMemo == 0, "seconds of a manual clock are not CLOCK_REALTIME's")
        }
    }
}

extension Range where Bound == Int {
    /// `map` with an async transform, in order.
    fileprivate func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for index in self { results.append(try await transform(index)) }
        return results
    }
}
