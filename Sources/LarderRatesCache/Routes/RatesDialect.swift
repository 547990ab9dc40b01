import LarderHTTP
import LarderRates

/// Whose conventions a rates route follows for errors: Larder's own names (`/rates*`) or
/// Frankfurter v1's (`/latest`, `/{date}`, `/{start}..{end}`, each also under `/v1`). The answers
/// themselves are the same bytes; only the status of some errors differs (README "Use it as Frankfurter").
enum RatesDialect: Sendable {
    case larder
    case frankfurter

    /// The error answer for a query or path this dialect refuses, in Larder's JSON shape.
    func error(_ error: RatesQueryError) -> HTTPError {
        switch (self, error) {
        case (_, .badRequest(let message)):
            return .badRequest(message)
        case (_, .unprocessable(let message)), (.frankfurter, .invalidAmount(let message)),
             (.frankfurter, .invalidDate(let message)), (.larder, .unknownCurrency(let message)):
            return HTTPError(.unprocessableContent, code: "unprocessable", message: message)
        case (.frankfurter, .unknownCurrency(let message)):
            return HTTPError(.notFound, code: "unknown_currency", message: message)
        case (.larder, .invalidAmount(let message)), (.larder, .invalidDate(let message)):
            return .badRequest(message)
        }
    }
}
