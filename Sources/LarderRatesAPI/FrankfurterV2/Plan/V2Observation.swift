import LarderRates

/// One stored rate as Frankfurter v2 reads a row: `quote` per unit of `base` on a day (a day number, `RateDate.dayNumber`).
public struct V2Observation: Sendable, Equatable {
    public let day: Int
    public let base: String
    public let quote: String
    public let rate: Double

    public init(day: Int, base: String, quote: String, rate: Double) {
        self.day = day
        self.base = base
        self.quote = quote
        self.rate = rate
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
