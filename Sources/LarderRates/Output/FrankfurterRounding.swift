import Foundation

/// Frankfurter's rounding by magnitude, for the Frankfurter dialects (v1 and v2): whole units above
/// 5000, then 2, 3, 4, 5 or 6 decimals as the value falls past 80, 20, 1 and 0.0001.
///
/// Frankfurter computes in binary floating point (Ruby `Float`) and rounds with `format("%.Nf")`, so this
/// does too, with Ruby's formatting (`RubyFixedFormat`): the same doubles in, the same doubles out, which is what makes its answers equal Frankfurter's
/// to the last digit. Larder's own `/rates` keeps its `Decimal` rule (`CrossRates`).
public enum FrankfurterRounding {
    /// `value` rounded as Frankfurter rounds it.
    public static func round(_ value: Double) -> Double {
        if value > 5000 {
            // Ruby's Float#round: half away from zero, to a whole number.
            return value.rounded(.toNearestOrAwayFromZero)
        }
        let decimals = value > 80 ? 2 : value > 20 ? 3 : value > 1 ? 4 : value > 0.0001 ? 5 : 6
        // Ruby's format, which near a tie rounds half to even where printf rounds the exact binary value.
        return Double(RubyFixedFormat.string(value, decimals: decimals)) ?? value
    }

    /// The JSON text of a number as Frankfurter writes it: the shortest digits that read back as the
    /// same double (`0.8143`, `158.3`), and no fraction above 5000, where Frankfurter's value is an integer.
    public static func text(_ value: Double) -> String {
        if value > 5000, value < 1e15, value == value.rounded() {
            return String(Int64(value))
        }
        return value.description
    }

    /// `text(round(value))`.
    public static func roundedText(_ value: Double) -> String {
        text(round(value))
    }
}
