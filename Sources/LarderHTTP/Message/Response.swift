/// What a handler answers: a status with headers and a body, or a response prepared once and shared.
public struct Response: Sendable {
    package enum Kind: Sendable {
        case composed(HTTPHeaders, ResponseBody)
        case prepared(PreparedResponse)
    }

    public let status: HTTPStatus
    package let kind: Kind
    /// What the server may repeat to later requests for the same target without the route (`AnswerMemo`).
    public let memo: AnswerMemo?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
        self.status = status
        kind = .composed(headers, body)
        memo = nil
    }

    /// Answers with a response built once (hot paths: no per-request allocation or header formatting);
    /// with `memo`, later requests for the same target may be answered from it.
    public init(prepared: PreparedResponse, memo: AnswerMemo? = nil) {
        status = prepared.status
        kind = .prepared(prepared)
        self.memo = memo
    }

    /// The response prepared once that this answers with, when it is one: its status, headers and
    /// bytes, readable without a socket (a route is tested as a value through it).
    public var prepared: PreparedResponse? {
        if case .prepared(let prepared) = kind { return prepared }
        return nil
    }

    /// The headers of a composed response (empty for a prepared one).
    public var headers: HTTPHeaders {
        if case .composed(let headers, _) = kind { return headers }
        return [:]
    }
}
