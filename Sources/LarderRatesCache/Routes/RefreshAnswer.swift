import LarderFreshness
import LarderHTTP

/// The bodies of `POST /rates/refresh`: what happened, or why the upstream failed.
enum RefreshAnswer {
    static func ok(_ outcome: RatesRefreshOutcome) -> Response {
        let date = outcome.date.map { "\"\($0)\"" } ?? "null"
        let body = "{\"changed\":\(outcome.changed),\"date\":\(date),\"days_changed\":\(outcome.daysChanged),"
            + "\"outcome\":\"\(outcome.kind.rawValue)\"}\n"
        return Response(
            status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .string(body))
    }

    /// 502 for anything the upstream did; 500 when Larder's own store failed. The cache is untouched either way.
    static func failed(_ error: RefreshError) -> Response {
        let status: HTTPStatus = error.kind == .store ? .internalServerError : .badGateway
        let code = error.kind == .store ? "store_error" : "upstream_failed"
        return HTTPError(status, code: code, message: error.message + "; the cached rates are unchanged").response
    }
}
