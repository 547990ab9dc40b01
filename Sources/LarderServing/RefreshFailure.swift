public import LarderFreshness
public import LarderHTTP

extension RefreshError {
    /// The answer of a `POST …/refresh` that failed: 502 for anything the upstream did, 500 when
    /// Larder's own store failed; `unchanged` says what was left as it was.
    public func response(unchanged: String) -> Response {
        let status: HTTPStatus = kind == .store ? .internalServerError : .badGateway
        let code = kind == .store ? "store_error" : "upstream_failed"
        return HTTPError(status, code: code, message: message + "; " + unchanged + " unchanged").response
    }
}
