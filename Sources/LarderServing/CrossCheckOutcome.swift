/// How one rates cross-check ended (SPEC §4.12), as `/metrics` counts it.
public enum CrossCheckOutcome: String, Sendable, CaseIterable {
    case agreed
    case disagreed
    /// No other upstream answered for the day.
    case unavailable
}
