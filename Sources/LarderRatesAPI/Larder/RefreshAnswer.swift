import LarderHTTP
import LarderRates

/// The body of a successful `POST /rates/refresh`: what happened.
enum RefreshAnswer {
    static func ok(_ outcome: RatesRefreshOutcome) -> Response {
        let date = outcome.date.map { "\"\($0)\"" } ?? "null"
        let body = "{\"changed\":\(outcome.changed),\"date\":\(date),\"days_changed\":\(outcome.daysChanged),"
            + "\"outcome\":\"\(outcome.kind.rawValue)\"}\n"
        return Response(
            status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .string(body))
    }
}
