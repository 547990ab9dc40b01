/// What a handler answers: a status with headers and a body, or a response prepared once and shared.
public struct Response: Sendable {
    enum Kind: Sendable {
        case composed(HTTPHeaders, ResponseBody)
        case prepared(PreparedResponse)
    }

    public let status: HTTPStatus
    let kind: Kind

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
        self.status = status
        kind = .composed(headers, body)
    }

    /// Answers with a response built once (hot paths: no per-request allocation or header formatting).
    public init(prepared: PreparedResponse) {
        status = prepared.status
        kind = .prepared(prepared)
    }

    /// The headers of a composed response (empty for a prepared one).
    public var headers: HTTPHeaders {
        if case .composed(let headers, _) = kind { return headers }
        return [:]
    }
}
