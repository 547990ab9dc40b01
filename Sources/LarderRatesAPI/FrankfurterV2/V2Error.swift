public import LarderHTTP
import LarderFormats

/// An error answer in Frankfurter v2's shape, `{"status":422,"message":"invalid date"}`, with its
/// statuses and messages (its `lib/versions/v2.rb` and `rate_query.rb`); never cached.
public struct V2Error: Error, Sendable, Equatable {
    public let status: HTTPStatus
    public let message: String

    public init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// 406: a `.csv` path (or `Accept: text/csv`) where only `/v2/rates` has a CSV form; Frankfurter sends no body.
    public static let notAcceptable = V2Error(HTTPStatus(406), "")
    /// 404, for an unrouted path and for a query that found nothing (`/v2/rate/…`, `/v2/currency/…`).
    public static let notFound = V2Error(.notFound, "not found")
    public static let invalidDate = V2Error(.unprocessableContent, "invalid date")
    /// `date` together with `from` or `to`.
    public static let conflictingParams = V2Error(.unprocessableContent, "conflicting params")
    /// `group` other than `week` or `month`.
    public static let invalidGroup = V2Error(.unprocessableContent, "invalid group")

    /// `unknown parameter: x, y`: the names in the order given (Frankfurter joins them with ", ").
    public static func unknownParameters(_ names: [String]) -> V2Error {
        V2Error(.unprocessableContent, "unknown parameter: " + names.joined(separator: ", "))
    }

    /// `invalid expand: x,y`: the expansions other than `providers`, lowercased, joined with ",".
    public static func invalidExpand(_ names: [String]) -> V2Error {
        V2Error(.unprocessableContent, "invalid expand: " + names.joined(separator: ","))
    }

    /// `invalid currency: XXX,YYY`: the base first, then the quotes, uppercased, joined with ",".
    public static func invalidCurrency(_ codes: [String]) -> V2Error {
        V2Error(.unprocessableContent, "invalid currency: " + codes.joined(separator: ","))
    }

    /// The body, `{"status":N,"message":"…"}` (Frankfurter's key order), no newline; empty for a 406.
    public var body: [UInt8] {
        guard status != HTTPStatus(406) else { return [] }
        var json = JSONWriter()
        json.raw("{\"status\":")
        json.int(status.rawValue)
        json.raw(",\"message\":")
        json.string(message)
        json.raw("}")
        return json.bytes
    }

    /// The response carrying this error: JSON as Frankfurter types it, `no-store` as every Larder error.
    public var response: Response {
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        if status != HTTPStatus(406) { headers.set("Content-Type", "application/json; charset=utf-8") }
        return Response(status: status, headers: headers, body: .bytes(SharedBytes(body)))
    }
}
