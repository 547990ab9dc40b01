import LarderRates

/// One stored rate as Frankfurter v2 reads a row: `quote` per unit of `base` on a day (a day number, `RateDate.dayNumber`).
public struct V2Observation: Sendable, Equatable {
    /// Who published the row (stub of part 2's contract).
    public let provider: String
    public let day: Int
    public let base: String
    public let quote: String
    public let rate: Double

    public init(provider: String, day: Int, base: String, quote: String, rate: Double) {
        self.provider = provider
        self.day = day
        self.base = base
        self.quote = quote
        self.rate = rate
    }

    public init(day: Int, base: String, quote: String, rate: Double) {
        self.init(provider: "ECB", day: day, base: base, quote: quote, rate: rate)
    }
}

/// One provider as `/v2/providers` lists it (stub of part 2's contract).
public struct V2ProviderInfo: Sendable, Equatable, Codable {
    public var key: String
    public var name: String?
    public var countryCode: String?
    public var rateType: String?
    public var pivotCurrency: String?
    public var dataURL: String?
    public var termsURL: String?
    public var startDate: String?
    public var endDate: String?
    public var publishCadence: String?
    public var publishesMissed: Int?
    public var currencies: [String]

    enum CodingKeys: String, CodingKey {
        case key, name, currencies
        case countryCode = "country_code", rateType = "rate_type", pivotCurrency = "pivot_currency"
        case dataURL = "data_url", termsURL = "terms_url", startDate = "start_date", endDate = "end_date"
        case publishCadence = "publish_cadence", publishesMissed = "publishes_missed"
    }
}

/// A provider's part in a blended rate, for `expand=providers`: its newest row's day and rate (rebased).
public struct V2Contribution: Sendable, Equatable {
    public let key: String
    public let day: Int
    public var rate: Double
    /// The peg, not the provider, set the rate.
    public var excluded: Bool
}

/// A rate after blending, in the requested base, before rounding.
public struct V2Blended: Sendable, Equatable {
    public var day: Int
    public var base: String
    public var quote: String
    public var rate: Double
    /// nil for a row a peg synthesized (no provider publishes it).
    public var providers: [V2Contribution]?
}
