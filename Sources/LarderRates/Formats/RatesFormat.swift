/// How `--rates-url` bodies are read (SPEC §5).
public enum RatesFormat: String, Sendable, CaseIterable {
    case auto, ecb, pipe, json
    /// The ECB data API's CSV (`format=csvdata`) for the EXR dataflow.
    case ecbSDMX = "ecb-sdmx"
    /// A Frankfurter (or another Larder) v1 API as the upstream; its URL is the API's base.
    case frankfurter
}

extension RatesFormat {
    /// True for the formats that carry the ECB's reference rates, published on its calendar.
    public var carriesECBRates: Bool {
        switch self {
        case .ecb, .ecbSDMX, .frankfurter: true
        case .auto, .pipe, .json: false
        }
    }
}
