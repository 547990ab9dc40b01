import LarderRates

extension FuzzTarget {
    /// The pipe format reader (`USD|1.0862` lines).
    static let pipeRates = ratesTarget("pipe-rates", format: .pipe)
}
