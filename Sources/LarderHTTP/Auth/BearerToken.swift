/// Checks `Authorization: Bearer TOKEN` against the admin token in constant time (SPEC §3).
public struct BearerToken: Sendable {
    private let expected: [UInt8]

    public init(_ token: String) {
        expected = Array(token.utf8)
    }

    /// nil when the request may proceed; else the 401 to answer.
    public func refusal(for request: Request) -> HTTPError? {
        let presented = request.headers["Authorization"].flatMap(Self.token(in:))
        if let presented, Self.constantTimeEquals(presented, expected) { return nil }
        return HTTPError(
            .unauthorized, code: "unauthorized",
            message: presented == nil
                ? "this route needs 'Authorization: Bearer <admin token>'"
                : "the bearer token is not the admin token",
            headers: ["WWW-Authenticate": "Bearer realm=\"larder\""])
    }

    /// The token's bytes after `Bearer` and one space. Split on bytes, not `Character`s: a token
    /// starting with a combining mark would otherwise fuse with the space and never be found.
    private static func token(in header: String) -> [UInt8]? {
        let parts = Array(header.utf8).split(separator: UInt8(ascii: " "), maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, String(decoding: parts[0], as: UTF8.self).lowercased() == "bearer" else { return nil }
        return Array(parts[1])
    }

    /// Compares every byte whatever the first difference, so timing does not reveal a prefix.
    package static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
