import Foundation
import LarderApp
import LarderFuzzing
import LarderHTTP
import LarderTesting
import Testing

/// Every route of the application, taken from its router (a new route is in the table by being
/// added), asked with `If-None-Match`, `If-Modified-Since`, `Range` and `If-Range` over loopback,
/// and each answer checked against RFC 9110 §13 and §14; the in-process router (the fuzz pipelines')
/// must give the same statuses, lean routes included.
@Suite("Validators on every route (RFC 9110 §13, §14)", .serialized)
struct ValidatorTableTests {
    /// Values for every `:name` and `*name` a route captures: each path is asked with each.
    static let examples: [String: [String]] = [
        "date": ["2026-11-20", "nonsense"], "name": ["welcome.txt"], "base": ["EUR"], "quote": ["USD"], "code": ["USD"],
        "rest": ["", "nothing"],
    ]
    static let future = "Fri, 01 Jan 2100 00:00:00 GMT"
    static let past = "Thu, 01 Jan 1970 00:00:01 GMT"

    /// One request of the table and what RFC 9110 requires of its answer.
    struct Case {
        let method: String
        let headers: [(String, String)]
        let expected: Expected
        let why: String
    }

    enum Expected: Equatable {
        case status(Int)
        /// 206 of the first byte, when the route serves ranges (`Accept-Ranges: bytes`); else the plain 200.
        case firstByteIfRanged
    }

    /// The cases for a route's GET, built from its plain answer's validators.
    static func cases(_ plain: TestResponse) -> [Case] {
        let tag = plain.header("ETag")
        let date = plain.header("Last-Modified")
        let ok = plain.status
        var cases: [Case] = [
            Case(method: "GET", headers: [("If-None-Match", #""no-such-tag""#)], expected: .status(ok),
                 why: "a tag that does not match: the answer"),
            Case(method: "GET", headers: [("If-None-Match", #""no-such-tag""#), ("If-Modified-Since", future)],
                 expected: .status(ok), why: "If-None-Match present: If-Modified-Since is ignored"),
            Case(method: "GET", headers: [("If-Modified-Since", "not a date")], expected: .status(ok),
                 why: "an invalid date is ignored"),
            Case(method: "GET", headers: [("Range", "bytes=0-0")], expected: .firstByteIfRanged,
                 why: "Range: 206 where ranges are served, ignored elsewhere"),
            Case(method: "HEAD", headers: [("Range", "bytes=0-0")], expected: .firstByteIfRanged,
                 why: "HEAD answers as GET would (§9.3.2), without the body"),
            Case(method: "GET", headers: [("If-Range", #""stale""#)], expected: .status(ok),
                 why: "If-Range without Range is ignored"),
            Case(method: "GET", headers: [("Range", "bytes=0-0"), ("If-Range", #""stale""#)],
                 expected: .status(ok), why: "a stale If-Range: the whole representation"),
            Case(method: "GET", headers: [("Range", "bytes=0-0"), ("If-Range", past)],
                 expected: .status(ok), why: "an If-Range date that is not Last-Modified: the whole representation"),
        ]
        guard ok == 200 else { return cases }
        if let tag {
            cases += [
                Case(method: "GET", headers: [("If-None-Match", tag)], expected: .status(304),
                     why: "the current tag: 304"),
                Case(method: "HEAD", headers: [("If-None-Match", tag)], expected: .status(304),
                     why: "the current tag on HEAD: 304"),
                Case(method: "GET", headers: [("If-None-Match", "W/" + tag)], expected: .status(304),
                     why: "If-None-Match compares weakly"),
                Case(method: "GET", headers: [("If-None-Match", "*")], expected: .status(304),
                     why: "* matches a current representation"),
                Case(method: "GET", headers: [("If-None-Match", tag), ("If-Modified-Since", past)],
                     expected: .status(304), why: "If-None-Match takes precedence over If-Modified-Since"),
                Case(method: "GET", headers: [("Range", "bytes=0-0"), ("If-Range", tag)],
                     expected: .firstByteIfRanged, why: "the current tag in If-Range: the range"),
                Case(method: "GET", headers: [("Range", "bytes=0-0"), ("If-Range", "W/" + tag)],
                     expected: .status(200), why: "If-Range compares strongly: a weak tag never matches"),
            ]
        }
        if let date {
            cases += [
                Case(method: "GET", headers: [("If-Modified-Since", date)], expected: .status(304),
                     why: "not modified since Last-Modified: 304"),
                Case(method: "GET", headers: [("If-Modified-Since", past)], expected: .status(200),
                     why: "modified since: the answer"),
            ]
        } else {
            cases.append(Case(method: "GET", headers: [("If-Modified-Since", future)], expected: .status(200),
                              why: "no Last-Modified to compare: the answer"))
        }
        return cases
    }

    @Test func everyRouteAnswersEveryValidatorAsRFC9110Says() async throws {
        try await withRatesAndDocuments { larder, _ in
            let application = try #require(larder.application)
            let router = LarderApplication.router(
                configuration: application.configuration, rates: application.rates, documents: application.documents,
                metrics: application.metrics, startedAt: Date(), blocking: application.blocking)
            var covered = 0
            for (method, pattern) in router.table {
                for path in Self.paths(pattern) {
                    if method == .post {
                        try await checkPost(path, larder)
                    } else {
                        try await checkGet(path, larder, router)
                    }
                    covered += 1
                }
            }
            #expect(covered >= 30, "the application's routes were enumerated: \(covered)")
        }
    }

    /// The paths `pattern` is asked at: each example substituted for each captured name.
    static func paths(_ pattern: String) -> [String] {
        var paths = [""]
        for segment in pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let first = segment.first, first == ":" || first == "*" else {
                paths = paths.map { $0 + "/" + segment }
                continue
            }
            let name = String(segment.dropFirst())
            guard let values = examples[name] else {
                Issue.record("a route captures :\(name): give it an example in ValidatorTableTests.examples")
                return []
            }
            paths = paths.flatMap { path in values.map { path + "/" + $0 } }
        }
        return paths.map { $0.isEmpty ? "/" : $0 }
    }

    private func checkGet(_ path: String, _ larder: TestLarder, _ router: Router) async throws {
        let plain = try await larder.get(path)
        for test in Self.cases(plain) {
            let answer = try await larder.request(test.method, path, headers: test.headers)
            let context = "\(test.method) \(path) \(test.headers): \(test.why)"
            switch test.expected {
            case .status(let status):
                #expect(answer.status == status, "\(context)")
                if status == 200 && plain.status == 200 && test.method == "GET" {
                    #expect(answer.header("Content-Range") == nil, "\(context): the whole representation")
                    if plain.header("ETag") != nil { #expect(answer.body.count == plain.body.count, "\(context)") }
                }
            case .firstByteIfRanged:
                if plain.status == 200, plain.header("Accept-Ranges") == "bytes" {
                    #expect(answer.status == 206 && answer.body == Array(plain.body.prefix(test.method == "GET" ? 1 : 0)),
                            "\(context)")
                    #expect(answer.header("Content-Range") == "bytes 0-0/\(plain.body.count)", "\(context)")
                } else {
                    #expect(answer.status == plain.status && answer.header("Content-Range") == nil, "\(context)")
                }
            }
            if answer.status == 304 { #expect(answer.header("ETag") == plain.header("ETag"), "\(context): 304 keeps ETag") }
            let inProcess = await router.answer(Request(
                method: HTTPMethod(rawValue: test.method), rawPath: path,
                segments: RequestReader.decodeSegments(path) ?? [], headers: HTTPHeaders(test.headers.map { (name: $0.0, value: $0.1) })))
            #expect(inProcess.status.rawValue == answer.status, "\(context): in-process as over loopback")
        }
    }

    /// A POST never answers 304, 206 or 416, whatever validators it carries. Its status is not compared
    /// with a plain POST's: a refresh's answer depends on what the one before it left running.
    private func checkPost(_ path: String, _ larder: TestLarder) async throws {
        let answer = try await larder.post(path, headers: [
            ("If-None-Match", #""x""#), ("If-Modified-Since", Self.future), ("Range", "bytes=0-0"), ("If-Range", #""x""#),
        ])
        #expect(![304, 206, 416].contains(answer.status) && answer.header("Content-Range") == nil, "POST \(path): \(answer.status)")
    }
}
