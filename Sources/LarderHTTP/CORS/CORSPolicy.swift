/// Which web origins may read a route's answers from a browser (SPEC §3, the Fetch standard's CORS).
public enum CORSPolicy: Sendable, Equatable {
    /// No CORS headers: a page on another origin cannot read the answers.
    case none
    /// `Access-Control-Allow-Origin: *`: any page may read them (public data).
    case anyOrigin
    /// Only these serialized origins (`https://app.example`), echoed back with `Vary: Origin`.
    case origins([String])

    /// The response headers every readable answer names, so a page can see its validators and freshness.
    public static let exposedHeaders = "ETag, Age, Cache-Status, Last-Modified"
    /// What a preflight allows: reads only, with the conditional and range headers a cache client sends.
    public static let allowedMethods = "GET, HEAD, OPTIONS"
    public static let allowedHeaders = "If-None-Match, If-Modified-Since, If-Range, Range"
    /// How long a browser may keep a preflight's answer.
    public static let preflightMaxAge = "86400"

    /// The variant of an answer for a request carrying `origin`; nil when the policy adds nothing.
    func variant(origin: @autoclosure () -> String?) -> CORSVariant? {
        switch self {
        case .none:
            return nil
        case .anyOrigin:
            return .anyOrigin
        case .origins(let allowed):
            // Origins are compared byte for byte, as browsers serialize them (RFC 6454 §6.2).
            guard let origin = origin(), let index = allowed.firstIndex(of: origin) else { return .varyOnly }
            return .origin(index)
        }
    }

    /// The headers of `variant`'s answers (an empty list for none).
    func headers(_ variant: CORSVariant) -> HTTPHeaders {
        var headers = HTTPHeaders()
        switch variant {
        case .anyOrigin:
            headers.add("Access-Control-Allow-Origin", "*")
            headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
        case .origin(let index):
            guard case .origins(let allowed) = self, allowed.indices.contains(index) else { return headers }
            headers.add("Access-Control-Allow-Origin", allowed[index])
            headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
            headers.add("Vary", "Origin")
        case .varyOnly:
            // The answer depends on Origin even when it grants nothing: shared caches must keep them apart.
            headers.add("Vary", "Origin")
        }
        return headers
    }

    /// The 204 a preflight (`OPTIONS` with `Access-Control-Request-Method`) gets.
    package func preflight(origin: String?, method: String?) -> Response {
        var headers = HTTPHeaders()
        // Only reads are granted: a preflight for any other method gets no CORS headers at all.
        let reads = method.map { $0 == "GET" || $0 == "HEAD" } ?? true
        if reads, let variant = variant(origin: origin) {
            for field in self.headers(variant) where field.name != "Access-Control-Expose-Headers" {
                headers.add(field.name, field.value)
            }
            if variant != .varyOnly {
                headers.add("Access-Control-Allow-Methods", Self.allowedMethods)
                headers.add("Access-Control-Allow-Headers", Self.allowedHeaders)
                headers.add("Access-Control-Max-Age", Self.preflightMaxAge)
            }
        }
        headers.add("Allow", Self.allowedMethods)
        headers.add("Cache-Control", "no-store")
        return Response(status: .noContent, headers: headers)
    }
}

/// One of the finite sets of CORS headers a policy gives: prepared answers keep one copy of each.
enum CORSVariant: Hashable, Sendable {
    case anyOrigin
    case origin(Int)
    case varyOnly

    /// A small dense index, for the prepared responses' variant table.
    var slot: Int {
        switch self {
        case .anyOrigin: return 0
        case .varyOnly: return 1
        case .origin(let index): return 2 + index
        }
    }
}
