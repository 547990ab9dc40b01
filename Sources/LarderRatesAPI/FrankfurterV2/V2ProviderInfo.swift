public import LarderRates

/// One entry of Frankfurter's `/v2/providers`, as a mirror's upstream gave it: who publishes (their
/// metadata), the days and currencies they cover, the publications they missed (null where Frankfurter has none).
public struct V2ProviderInfo: Sendable, Equatable, Decodable {
    public var provider: RatesProvider
    public var startDate: String?
    public var endDate: String?
    public var publishesMissed: Int?
    public var currencies: [String]

    public init(
        provider: RatesProvider, startDate: String? = nil, endDate: String? = nil, publishesMissed: Int? = nil,
        currencies: [String] = []
    ) {
        self.provider = provider
        self.startDate = startDate
        self.endDate = endDate
        self.publishesMissed = publishesMissed
        self.currencies = currencies
    }

    enum CodingKeys: String, CodingKey {
        case key, name, currencies
        case countryCode = "country_code"
        case rateType = "rate_type"
        case pivotCurrency = "pivot_currency"
        case dataURL = "data_url"
        case termsURL = "terms_url"
        case startDate = "start_date"
        case endDate = "end_date"
        case publishCadence = "publish_cadence"
        case publishesMissed = "publishes_missed"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        let key = try fields.decode(String.self, forKey: .key)
        provider = RatesProvider(
            key: key, name: try fields.decodeIfPresent(String.self, forKey: .name) ?? key,
            countryCode: try fields.decodeIfPresent(String.self, forKey: .countryCode),
            rateType: try fields.decodeIfPresent(String.self, forKey: .rateType),
            pivotCurrency: try fields.decodeIfPresent(String.self, forKey: .pivotCurrency),
            dataURL: try fields.decodeIfPresent(String.self, forKey: .dataURL),
            termsURL: try fields.decodeIfPresent(String.self, forKey: .termsURL),
            publishCadence: try fields.decodeIfPresent(String.self, forKey: .publishCadence))
        startDate = try fields.decodeIfPresent(String.self, forKey: .startDate)
        endDate = try fields.decodeIfPresent(String.self, forKey: .endDate)
        publishesMissed = try fields.decodeIfPresent(Int.self, forKey: .publishesMissed)
        currencies = try fields.decodeIfPresent([String].self, forKey: .currencies) ?? []
    }
}
