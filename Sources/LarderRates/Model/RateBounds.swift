public import Foundation

/// The days a rates payload may hold (SPEC §4.11): none after tomorrow (UTC), none before the
/// format's first plausible day. A payload with a day outside is refused whole, and a stored day
/// outside is left out of answers (kept on disk), so no day can wedge the schedule or never-regress
/// years ahead. "Today" is the caller's: the later of the clock and the newest instant Larder recorded.
public struct RateBounds: Sendable, Equatable {
    /// The first and last day accepted.
    public let earliest: RateDate
    public let latest: RateDate

    /// The bounds at `now` for a feed read as `format`.
    public init(format: RatesFormat, now: Date) {
        earliest = Self.earliest(for: format)
        // Tomorrow: a provider east of UTC may already publish the next day's set, never the one after.
        latest = RateDate(containing: now).adding(days: 1) ?? .lastDay
    }

    /// 1999-01-04 for the ECB's feeds: its first euro reference rates (no euro rate exists before).
    /// 1970-01-01 for the others: no rates API serves older days, and a zero or negative
    /// `timestamp` (a broken Open Exchange Rates answer) lands there or earlier.
    public static func earliest(for format: RatesFormat) -> RateDate {
        switch format {
        case .ecb, .ecbSDMX, .frankfurter: RateDate(year: 1999, month: 1, day: 4) ?? .firstDay
        case .auto, .json, .pipe: RateDate(year: 1970, month: 1, day: 1) ?? .firstDay
        }
    }

    public func contains(_ day: RateDate) -> Bool {
        earliest <= day && day <= latest
    }

    /// Why `day` is outside, or nil when it is inside.
    public func refusal(of day: RateDate) -> String? {
        if day > latest { return "the day \(day) is after \(latest) (today, UTC, + 1 day)" }
        if day < earliest { return "the day \(day) is before \(earliest), the feed's first plausible day" }
        return nil
    }

    /// Throws naming the newest day after the bounds, else the oldest before them.
    public func check(_ sets: [RateSet]) throws(RatesFormatError) {
        let days = sets.map(\.date)
        if let newest = days.max(), let reason = refusal(of: newest) { throw RatesFormatError(reason) }
        if let oldest = days.min(), let reason = refusal(of: oldest) { throw RatesFormatError(reason) }
    }
}
