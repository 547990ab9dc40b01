/// How `--rates-url` bodies are read (SPEC §5).
public enum RatesFormat: String, Sendable, CaseIterable {
    case auto, ecb, pipe, json
    /// The ECB data API's CSV (`format=csvdata`) for the EXR dataflow.
    case ecbSDMX = "ecb-sdmx"
    /// A Frankfurter (or another Larder) v1 API as the upstream; its URL is the API's base.
    case frankfurter
}
