import Foundation
import LarderRates

/// Which way a provider stores each currency's rows with its pivot, found by asking: Frankfurter's
/// `/v2/providers` does not say, and a single-provider query echoes the stored digits only in the stored
/// orientation, deriving the other as `FrankfurterRounding` (Frankfurter's `Roundable`) rounds `1 / rate`.
///
/// Over the provider's last `days` days, x is the `base=PIVOT` answer and y the `base=C&quotes=PIVOT`
/// one. A value with more digits than the rounding keeps is a stored one; otherwise a day where
/// x ≠ round(1 / y) proves x stored, one where y ≠ round(1 / x) proves y stored. Never proven: (PIVOT, C),
/// where the one query for all currencies brings values that agree with the stored ones within rounding.
enum FrankfurterOrientationProbe {
    /// How a provider stores a currency's rows: (PIVOT, C) or (C, PIVOT).
    enum Stored: String, Sendable {
        case pivotBase = "base"
        case pivotQuote = "quote"
    }

    /// What one currency's answers prove.
    enum Verdict: Equatable {
        case proven(Stored)
        case ambiguous
    }

    /// The days asked, up to the provider's `end_date` (Frankfurter's lookback: its late rows land there).
    static let days = 14
    /// The prefix of the finished-window keys that keep a verdict, `orientation:USD:base`.
    static let prefix = "orientation:"

    /// The verdicts kept among a provider's finished windows, by currency.
    static func kept(_ windows: Set<String>) -> [String: Stored] {
        var stored: [String: Stored] = [:]
        for window in windows where window.hasPrefix(prefix) {
            let parts = window.dropFirst(prefix.count).split(separator: ":")
            if parts.count == 2, let way = Stored(rawValue: String(parts[1])) { stored[String(parts[0])] = way }
        }
        return stored
    }

    /// The window key that keeps `code`'s verdict.
    static func key(_ code: String, _ stored: Stored) -> String { "\(prefix)\(code):\(stored.rawValue)" }

    /// The verdict from x alone: a stored value shows itself by digits the rounding would drop.
    static func judge(pivotBased x: [RateDate: String]) -> Verdict {
        x.values.contains(where: hasDigitsBeyondRounding) ? .proven(.pivotBase) : .ambiguous
    }

    /// The verdict from x and y, day by day.
    static func judge(pivotBased x: [RateDate: String], pivotQuoted y: [RateDate: String]) -> Verdict {
        let alone = judge(pivotBased: x)
        if alone != .ambiguous { return alone }
        if y.values.contains(where: hasDigitsBeyondRounding) { return .proven(.pivotQuote) }
        for (day, xText) in x {
            guard let yText = y[day], let xValue = Double(xText), let yValue = Double(yText), xValue > 0, yValue > 0 else { continue }
            if xValue != FrankfurterRounding.round(1 / yValue) { return .proven(.pivotBase) }
            if yValue != FrankfurterRounding.round(1 / xValue) { return .proven(.pivotQuote) }
        }
        return .ambiguous
    }

    /// True when `text` holds digits Frankfurter's rounding drops: a derived value never does.
    static func hasDigitsBeyondRounding(_ text: String) -> Bool {
        guard let value = Double(text), value > 0 else { return false }
        return FrankfurterRounding.round(value) != value
    }
}
