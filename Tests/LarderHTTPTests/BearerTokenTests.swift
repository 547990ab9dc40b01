@testable import LarderHTTP
import Testing

/// SPEC §3's admin token as `BearerToken` checks it, on requests built as values.
@Suite("BearerToken: the admin routes' Authorization check")
struct BearerTokenTests {
    static let token = BearerToken("s3cret-token")

    static func request(_ authorization: String?) -> Request {
        var headers = HTTPHeaders()
        if let authorization { headers.add("Authorization", authorization) }
        return Request(method: .post, rawPath: "/rates/refresh", segments: ["rates", "refresh"], headers: headers)
    }

    @Test(arguments: ["Bearer s3cret-token", "bearer s3cret-token", "BEARER s3cret-token"])
    func theTokenLetsTheRequestThrough(_ authorization: String) {
        #expect(Self.token.refusal(for: Self.request(authorization)) == nil)
    }

    @Test(arguments: ["Bearer s3cret", "Bearer s3cret-token2", "Bearer S3CRET-TOKEN", "Bearer s3cret-token "])
    func anyOtherTokenIsRefused(_ authorization: String) throws {
        let refusal = try #require(Self.token.refusal(for: Self.request(authorization)))
        #expect(refusal.status == .unauthorized)
        #expect(refusal.code == "unauthorized")
        #expect(refusal.message == "the bearer token is not the admin token")
        #expect(refusal.headers["WWW-Authenticate"] == "Bearer realm=\"larder\"")
    }

    @Test(arguments: [nil, "", "Basic czNjcmV0LXRva2Vu", "Bearer", "s3cret-token"] as [String?])
    func aMissingBearerTokenIsRefusedWithHowToSendOne(_ authorization: String?) throws {
        let refusal = try #require(Self.token.refusal(for: Self.request(authorization)))
        #expect(refusal.status == .unauthorized)
        #expect(refusal.message == "this route needs 'Authorization: Bearer <admin token>'")
    }

    @Test func theComparisonCoversEveryByteAndTheLength() {
        let bytes = Array("abc".utf8)
        #expect(BearerToken.constantTimeEquals(bytes, bytes))
        #expect(!BearerToken.constantTimeEquals(bytes, Array("abd".utf8)))
        #expect(!BearerToken.constantTimeEquals(bytes, Array("ab".utf8)))
        #expect(!BearerToken.constantTimeEquals(bytes, Array("abc\0".utf8)), "a zero byte past the end still counts")
        #expect(BearerToken.constantTimeEquals([], []))
    }
}
