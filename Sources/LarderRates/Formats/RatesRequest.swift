public import Foundation

/// What a refresh asks one rates upstream for.
public enum RatesRequestPurpose: Sendable, Equatable {
    /// The routine refresh: everything on a first sync, else what is new since the newest stored
    /// day or the last success, as the format allows.
    case refresh(newestStored: RateDate?, lastSuccess: Date?)
    /// One day only, for a cross-check of that day's publication.
    case day(RateDate)
}

/// The URL a rates request goes to, by format: the ECB data API and Frankfurter are asked for a
/// range; the other formats are fetched as configured.
public enum RatesRequest {
    public static func url(base: String, format: RatesFormat, for purpose: RatesRequestPurpose) -> String {
        base
    }
}
