import Foundation
import LarderHTTP
import LarderServing
import LarderTesting
import Testing

/// The gzip variant as values: what `PreparedAnswer` hands libmicrohttpd for each encoding.
@Suite("PreparedAnswer: the gzip variant of a body over 1 KiB")
struct PreparedAnswerGzipTests {
    /// 100 rates: about 1.5 KiB of JSON.
    static let large = Array(
        ("{\"rates\":{" + (0..<100).map { "\"C\($0)\":\(1000 + $0).25" }.joined(separator: ",") + "}}\n").utf8)
    static let gzip: HTTPHeaders = ["Accept-Encoding": "gzip, deflate"]

    static func answer(_ bytes: [UInt8] = large) -> PreparedAnswer {
        PreparedAnswer(Representation(bytes: bytes, lastModified: Date(timeIntervalSince1970: 1_790_000_000)))
    }

    static func response(
        _ answer: PreparedAnswer, _ headers: HTTPHeaders = [:], now: TimeInterval = 1_790_000_040,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PreparedResponse {
        try #require(PreparedAnswerTests.prepared(
            answer.response(for: PreparedAnswerTests.request(headers), state: PreparedAnswerTests.state(now: now)),
            sourceLocation: sourceLocation))
    }

    @Test func theGzipAnswerInflatesToTheIdentityBytesWithItsOwnETag() throws {
        let answer = Self.answer()
        let identity = try Self.response(answer)
        let gzip = try Self.response(answer, Self.gzip)
        let etag = answer.representation.etag
        #expect(Self.large.count > 1024)
        #expect(gzip.status == .ok)
        #expect(gunzip(gzip.body.array) == Self.large)
        #expect(gzip.body.count < Self.large.count / 2)
        #expect(gzip.headers["Content-Encoding"] == "gzip")
        #expect(gzip.headers["ETag"] == String(etag.dropLast()) + "-gzip\"")
        #expect(gzip.headers["Content-Type"] == "application/json")
        #expect(identity.body.array == Self.large)
        #expect(identity.headers["Content-Encoding"] == nil)
        #expect(identity.headers["ETag"] == etag)
        for response in [identity, gzip] {
            #expect(response.headers["Vary"] == "Accept-Encoding")
            #expect(response.headers["Cache-Control"] == "public, max-age=60")
        }
    }

    @Test func eachEncodingAnswers304ToItsOwnETagOnly() throws {
        let answer = Self.answer()
        let identityTag = answer.representation.etag
        let gzipTag = try #require(answer.representation.gzip?.etag)
        let gzip304 = try Self.response(answer, ["Accept-Encoding": "gzip", "If-None-Match": gzipTag])
        let identity304 = try Self.response(answer, ["If-None-Match": identityTag])
        let identityTagAskingGzip = try Self.response(answer, ["Accept-Encoding": "gzip", "If-None-Match": identityTag])
        let gzipTagAskingIdentity = try Self.response(answer, ["If-None-Match": gzipTag])
        #expect(gzip304.status == .notModified && gzip304.body.count == 0)
        #expect(gzip304.headers["ETag"] == gzipTag)
        #expect(gzip304.headers["Vary"] == "Accept-Encoding")
        #expect(gzip304.headers["Content-Encoding"] == nil)
        #expect(identity304.status == .notModified && identity304.headers["ETag"] == identityTag)
        #expect(identity304.headers["Vary"] == "Accept-Encoding")
        #expect(identityTagAskingGzip.status == .ok && identityTagAskingGzip.headers["Content-Encoding"] == "gzip")
        #expect(gzipTagAskingIdentity.status == .ok && gzipTagAskingIdentity.headers["Content-Encoding"] == nil)
    }

    @Test func theGzipBytesAreMadeOnceAndSharedAcrossSeconds() throws {
        let answer = Self.answer()
        let variant = try #require(answer.representation.gzip)
        let first = try Self.response(answer, Self.gzip, now: 1_790_000_040.1)
        let same = try Self.response(answer, ["Accept-Encoding": "x-gzip"], now: 1_790_000_040.9)
        let next = try Self.response(answer, Self.gzip, now: 1_790_000_041)
        #expect(first === same, "one gzip 200 per second")
        #expect(next !== first)
        #expect(next.body === first.body, "compressed once, never per request or per second")
        #expect(variant.bytes === first.body)
        // Another representation of the same bytes compresses anew (its own change), to the same bytes.
        let other = try Self.response(Self.answer(), Self.gzip)
        #expect(other.body !== first.body && other.body.array == first.body.array)
    }

    @Test("identity when asked", arguments: [
        ["Accept-Encoding": "gzip;q=0"], ["Accept-Encoding": "identity"], ["Accept-Encoding": "br, zstd"],
        ["Accept-Encoding": "gzip", "Range": "bytes=0-99"], [:],
    ] as [HTTPHeaders])
    func identityWhenGzipIsRefusedOrARangeIsAsked(_ headers: HTTPHeaders) throws {
        let response = try Self.response(Self.answer(), headers)
        #expect(response.status == .ok, "a range of a prepared answer is the whole body, as before")
        #expect(response.body.array == Self.large)
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Vary"] == "Accept-Encoding")
    }

    @Test func aBodyOf1KiBOrLessHasIdentityOnlyAndNoVary() throws {
        let small = Array(repeating: UInt8(ascii: "a"), count: 1024)
        let answer = Self.answer(small)
        #expect(answer.representation.gzip == nil)
        #expect(Self.answer(small + [UInt8(ascii: "a")]).representation.gzip != nil)
        let response = try Self.response(answer, Self.gzip)
        #expect(response.body.array == small)
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Vary"] == nil)
    }
}
