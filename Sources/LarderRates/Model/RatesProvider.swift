/// Who publishes the rates Larder serves — not where Larder fetches them — as Frankfurter v2 names
/// providers (`/v2/providers`, `?providers=`): an ECB feed is `ECB`, whichever mirror serves it.
public struct RatesProvider: Sendable, Hashable {
    /// The key clients name it by, upper case: `ECB`.
    public let key: String
    public let name: String
    /// ISO 3166-1 alpha-2 (`EU` for the euro area's bank); nil when unknown.
    public let countryCode: String?
    /// The publisher's own words for its rates (`reference rate`); nil when unknown.
    public let rateType: String?
    /// The currency every published rate is quoted against; nil: the stored days' base.
    public let pivotCurrency: String?
    public let dataURL: String?
    public let termsURL: String?
    /// `daily`, `weekly` or `monthly`; nil when the publisher keeps no schedule Larder knows.
    public let publishCadence: String?

    public init(
        key: String, name: String, countryCode: String? = nil, rateType: String? = nil, pivotCurrency: String? = nil,
        dataURL: String? = nil, termsURL: String? = nil, publishCadence: String? = nil
    ) {
        self.key = key
        self.name = name
        self.countryCode = countryCode
        self.rateType = rateType
        self.pivotCurrency = pivotCurrency
        self.dataURL = dataURL
        self.termsURL = termsURL
        self.publishCadence = publishCadence
    }

    /// The European Central Bank as Frankfurter describes it (its db/seeds/providers/ecb.json); its
    /// publication days are Larder's ECB calendar.
    public static let ecb = RatesProvider(
        key: "ECB", name: "European Central Bank", countryCode: "EU", rateType: "reference rate", pivotCurrency: "EUR",
        dataURL: "https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html",
        termsURL: "https://www.ecb.europa.eu/services/using-our-site/disclaimer/html/index.en.html",
        publishCadence: "daily")

    /// Open Exchange Rates, the publisher of the OXR JSON shape; it publishes hourly, which is no cadence Frankfurter names.
    public static let openExchangeRates = RatesProvider(
        key: "OXR", name: "Open Exchange Rates", dataURL: "https://openexchangerates.org",
        termsURL: "https://openexchangerates.org/terms")

    /// The provider of a key: the known publishers by their metadata, any other key by its name alone.
    public static func named(_ key: String) -> RatesProvider {
        switch key {
        case ecb.key: ecb
        case openExchangeRates.key: openExchangeRates
        default: RatesProvider(key: key, name: key)
        }
    }

    /// The key a feed of `format` gets when `--rates-provider` is not set: `ECB` for the ECB's XML,
    /// `OXR` for the JSON shapes (Open Exchange Rates'), `PIPE` for the pipe format, which names no
    /// publisher; nil for `auto` until the feed's format is known.
    public static func naturalKey(for format: RatesFormat) -> String? {
        switch format {
        case .ecb, .ecbSDMX, .frankfurter: "ECB"
        case .json: "OXR"
        case .pipe: "PIPE"
        case .auto: nil
        }
    }

    /// True for a key `--rates-provider` takes: 1 to 16 upper-case letters, digits or `_`, as
    /// `?providers=` compares upper-cased keys.
    public static func isValidKey(_ key: String) -> Bool {
        (1...16).contains(key.utf8.count)
            && key.utf8.allSatisfy { (65...90).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "_") }
    }
}
