/// How `--rates-url` bodies are read (SPEC §5).
public enum RatesFormat: String, Sendable, CaseIterable {
    case auto, ecb, pipe, json
}
