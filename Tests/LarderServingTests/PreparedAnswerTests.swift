import Foundation
import LarderHTTP
import LarderServing
import Testing

/// The hot path's answers as values: what `PreparedAnswer` hands libmicrohttpd, read back without a socket.
@Suite("PreparedAnswer: the 200 and the 304, built once per second")
struct PreparedAnswerTests {
    static let representation = Representation(
        bytes: Array("{\"rates\":{}}\n".utf8), lastModified: Date(timeIntervalSince1970: 1_790_000_000))
    /// Confirmed 40 s ago on a 100 s TTL.
    static func state(now: TimeInterval) -> CacheState {
        CacheState(
            fetchedAt: Date(timeIntervalSince1970: 1_790_000_000), expiresAt: Date(timeIntervalSince1970: 1_790_000_100),
            now: Date(timeIntervalSince1970: now), staleDetail: nil)
    }

    static func request(_ headers: HTTPHeaders = [:]) -> Request {
        Request(method: .get, rawPath: "/rates", segments: ["rates"], headers: headers)
    }

    /// The prepared response inside `response` (nil, recorded, for a composed one).
    static func prepared(_ response: Response, sourceLocation: SourceLocation = #_sourceLocation) -> PreparedResponse? {
        guard let prepared = response.prepared else {
            Issue.record("expected a prepared response", sourceLocation: sourceLocation)
            return nil
        }
        return prepared
    }

    @Test func theOkCarriesTheBodyValidatorsAndCacheHeaders() throws {
        let answer = PreparedAnswer(Self.representation)
        let ok = try #require(Self.prepared(answer.response(for: Self.request(), state: Self.state(now: 1_790_000_040.5))))
        #expect(ok.status == .ok)
        #expect(ok.body.array == Array("{\"rates\":{}}\n".utf8))
        #expect(ok.headers["ETag"] == Self.representation.etag)
        #expect(ok.headers["Last-Modified"] == "Mon, 21 Sep 2026 14:13:20 GMT")
        #expect(ok.headers["Content-Type"] == "application/json")
        #expect(ok.headers["Cache-Control"] == "public, max-age=59")
        #expect(ok.headers["Age"] == "40")
        #expect(ok.headers["Cache-Status"] == "Larder; hit; ttl=59")
        // The answer's own `Date`, of its second (libmicrohttpd then formats none per request).
        #expect(ok.headers["Date"] == "Mon, 21 Sep 2026 14:14:00 GMT")
    }

    @Test func matchingValidatorsGetTheBodilessNotModified() throws {
        let answer = PreparedAnswer(Self.representation)
        let state = Self.state(now: 1_790_000_040)
        let byTag = try #require(Self.prepared(answer.response(
            for: Self.request(["If-None-Match": Self.representation.etag]), state: state)))
        let byDate = try #require(Self.prepared(answer.response(
            for: Self.request(["If-Modified-Since": Self.representation.lastModifiedText]), state: state)))
        #expect(byTag.status == .notModified)
        #expect(byTag.body.count == 0)
        #expect(byTag.headers["ETag"] == Self.representation.etag)
        #expect(byTag.headers["Content-Type"] == nil)
        #expect(byTag.headers["Cache-Control"] == "public, max-age=60")
        #expect(byDate === byTag, "one 304 serves every matching request of the second")
    }

    @Test func oneSecondSharesItsResponsesAndTheNextRebuildsThem() throws {
        let answer = PreparedAnswer(Self.representation, immutable: true)
        let first = try #require(Self.prepared(answer.response(for: Self.request(), state: Self.state(now: 1_790_000_040.1))))
        let same = try #require(Self.prepared(answer.response(for: Self.request(), state: Self.state(now: 1_790_000_040.9))))
        let next = try #require(Self.prepared(answer.response(for: Self.request(), state: Self.state(now: 1_790_000_041))))
        #expect(first === same)
        #expect(next !== first)
        #expect(first.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(first.headers["Age"] == "40")
        #expect(next.headers["Age"] == "41")
        #expect(next.body === first.body, "the bytes are never copied")
    }
}
