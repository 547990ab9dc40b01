import LarderHTTP
import LarderRates

extension RatesQueryError {
    /// The error answer on Larder's own routes (`/rates*`), in Larder's JSON shape (docs/rates.md).
    var httpError: HTTPError {
        switch self {
        case .badRequest(let message), .invalidAmount(let message), .invalidDate(let message):
            return .badRequest(message)
        case .unprocessable(let message), .unknownCurrency(let message):
            return HTTPError(.unprocessableContent, code: "unprocessable", message: message)
        }
    }
}
