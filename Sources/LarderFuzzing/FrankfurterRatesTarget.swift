import LarderRates

extension FuzzTarget {
    /// The Frankfurter v1 time series and single-day reader.
    static let frankfurterRates = ratesTarget("frankfurter-rates", format: .frankfurter)
}
