import LarderHTTP
import LarderServing

extension V2Routes {
    /// `/v2/rates` (JSON, or NDJSON for `Accept: application/x-ndjson`), `/v2/rates.csv` and `/v2/rate/{base}/{quote}`.
    func registerRates(on router: inout Router) {
    }
}
