import LarderHTTP

extension FuzzTarget {
    /// The admin token check (lines: the configured token, the `Authorization` value). A request
    /// passes only when it presents exactly the token after the `Bearer` scheme; the comparison
    /// agrees with `==` on every pair of byte strings.
    static let bearerToken = FuzzTarget("bearer-token") { input throws(PropertyViolation) in
        let lines = parts(input, 2)
        let (token, header) = (lines[0], lines[1])
        let request = Request(method: .post, rawPath: "/rates/refresh", segments: ["rates", "refresh"],
                              headers: ["Authorization": header])
        let refusal = BearerToken(token).refusal(for: request)
        if refusal == nil {
            let trimmed = header.drop { $0 == " " }
            let scheme = trimmed.prefix(7).lowercased()
            try expect(scheme == "bearer " && trimmed.dropFirst(7) == token[...] && !token.isEmpty,
                       "\(header.debugDescription) passed for the token \(token.debugDescription)")
        } else {
            try expect(refusal?.status == .unauthorized, "a refusal that is not 401")
        }
        if !token.isEmpty, !token.hasPrefix(" ") {
            let exact = Request(method: .post, rawPath: "/", segments: [], headers: ["Authorization": "Bearer " + token])
            try expect(BearerToken(token).refusal(for: exact) == nil, "the token \(token.debugDescription) was refused")
        }
        let (a, b) = (Array(token.utf8), Array(header.utf8))
        try expect(BearerToken.constantTimeEquals(a, b) == (a == b), "constant-time comparison disagrees with ==")
        try expect(BearerToken.constantTimeEquals(a, a), "a token differs from itself")
    }
}
