public import LarderHTTP
import LarderServing

/// Frankfurter's index answers: `/v1` (and `/v1/`) as Frankfurter's v1 root, the OpenAPI documents of
/// the dialects at `/v1/openapi.json` and `/v2/openapi.json` (generated from openapi.yaml by
/// tools/generate/dialect-openapi.py, embedded at build time), and Frankfurter's 404 for any other path
/// under `/v1`. The root index at `/` is the status page's route's (`StatusPageRoutes`).
public struct DialectRoutes: Sendable {
    let cors: CORSPolicy

    public init(cors: CORSPolicy) {
        self.cors = cors
    }

    static let v1Index = FixedAnswer(json: Array(
        #"{"version":"v1","status":"frozen","openapi":"/v1/openapi.json","docs":"https://frankfurter.dev"}"#.utf8
            + [UInt8(ascii: "\n")]))
    static let v1OpenAPI = FixedAnswer(json: PackageResources.v1_openapi_json)
    static let v2OpenAPI = FixedAnswer(json: PackageResources.v2_openapi_json)

    /// Frankfurter's answer to a path it has no route for.
    static let notFound = Response(
        status: .notFound, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
        body: .bytes(SharedBytes(Array(#"{"status":404,"message":"not found"}"#.utf8 + [UInt8(ascii: "\n")]))))

    public func register(on router: inout Router) {
        for (path, answer) in [("/v1", Self.v1Index), ("/v1/openapi.json", Self.v1OpenAPI), ("/v2/openapi.json", Self.v2OpenAPI)] {
            router.add(.get, path, reads: ["If-None-Match"], cors: cors, .immediate { request in answer.response(for: request) })
        }
    }

    /// Frankfurter's 404 for the rest of `/v1` (and its index at `/v1/`): every other `/v1` route
    /// ranks over its `*rest`, so it only takes what they leave.
    public static func registerFallback(on router: inout Router) {
        router.add(.get, "/v1/*rest", .immediate { request in
            request.parameters["rest"] == "" ? v1Index.response(for: request) : notFound
        })
    }
}
