import Foundation

/// An error answer in Larder's JSON shape: `{"error":{"code":"…","message":"…"}}`, never cached.
public struct HTTPError: Error, Sendable {
    public let status: HTTPStatus
    public let code: String
    public let message: String
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, code: String, message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The response carrying this error.
    public var response: Response {
        var fields = headers
        fields.set("Content-Type", "application/json")
        fields.set("Cache-Control", "no-store")
        return Response(status: status, headers: fields, body: .bytes(SharedBytes(Self.encode(code, message))))
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
        }
        let error: Detail
    }

    static func encode(_ code: String, _ message: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Body(error: .init(code: code, message: message)))) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }
}

extension HTTPError {
    public static func notFound(_ message: String = "no such resource") -> HTTPError {
        HTTPError(.notFound, code: "not_found", message: message)
    }

    public static func badRequest(_ message: String) -> HTTPError {
        HTTPError(.badRequest, code: "bad_request", message: message)
    }

    public static func methodNotAllowed(_ method: HTTPMethod, allow: [HTTPMethod]) -> HTTPError {
        let list = allow.map(\.rawValue).joined(separator: ", ")
        return HTTPError(
            .methodNotAllowed, code: "method_not_allowed",
            message: "\(method.rawValue) is not allowed here; allowed: \(list)",
            headers: ["Allow": list]
        )
    }

    public static func serviceUnavailable(_ message: String, retryAfterSeconds: Int) -> HTTPError {
        HTTPError(
            .serviceUnavailable, code: "unavailable", message: message,
            headers: ["Retry-After": String(retryAfterSeconds)]
        )
    }
}
