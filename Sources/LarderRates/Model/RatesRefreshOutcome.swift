/// What one successful contact with the rates upstream did.
public struct RatesRefreshOutcome: Sendable, Equatable {
    /// How the upstream's answer was taken.
    public enum Kind: String, Sendable {
        /// 304: only `fetched_at` moved.
        case notModified = "not_modified"
        /// A body equal to the cached data: only `fetched_at` and the validators moved.
        case unchanged
        /// One or more days were added or replaced.
        case updated
        /// The upstream's data was older than the cached data and replaced nothing.
        case regressionRefused = "regression_refused"
    }

    public let kind: Kind
    /// Days added or replaced.
    public let daysChanged: Int
    /// The newest stored day afterwards.
    public let date: RateDate?

    public init(kind: Kind, daysChanged: Int, date: RateDate?) {
        self.kind = kind
        self.daysChanged = daysChanged
        self.date = date
    }

    public var changed: Bool { daysChanged > 0 }
}
