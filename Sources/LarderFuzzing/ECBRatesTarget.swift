import LarderRates

extension FuzzTarget {
    /// The ECB's eurofxref XML reader (daily and history files).
    static let ecbRates = ratesTarget("ecb-rates", format: .ecb)
}
