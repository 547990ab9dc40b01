import LarderRates

extension FuzzTarget {
    /// The ECB data API's CSV reader (RFC 4180 quoting, columns by header name).
    static let ecbSDMXRates = ratesTarget("ecb-sdmx-rates", format: .ecbSDMX)
}
