import LarderRates

/// One stored rate as Frankfurter v2 reads a row: `quote` per unit of `base` on a day (a day number,
/// `RateDate.dayNumber`), published by `provider` (empty for the rows of a one-provider feed, which
/// the query names with the feed's key).
public struct V2Observation: Sendable, Equatable {
    public let provider: String
    public let day: Int
    public let base: String
    public let quote: String
    public let rate: Double

    public init(provider: String = "", day: Int, base: String, quote: String, rate: Double) {
        self.provider = provider
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
    /// The consensus dropped it as an outlier, or a peg set the rate instead.
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
