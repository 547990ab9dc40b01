import LarderRates

extension FuzzTarget {
    /// The Frankfurter and Open Exchange Rates JSON reader.
    static let jsonRates = ratesTarget("json-rates", format: .json)
}
