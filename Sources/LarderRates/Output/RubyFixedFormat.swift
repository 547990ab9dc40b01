import Foundation

/// Ruby's `format("%.Nf", value)`, which Frankfurter rounds with: not printf's correct rounding.
///
/// Ruby's dtoa tries a fast floating-point digit generation first and, when the remainder lands
/// within its error bound of one half, rounds the last digit half to even instead of deciding
/// exactly: `format("%.4f", 1.38255)` is `1.3826` in Ruby and `1.3825` in C (the double lies just
/// below the tie). This is that fast path (David Gay's dtoa, mode 3, as Ruby carries it), step for
/// step in the same double arithmetic; where it gives up, the exact answer, which printf's is.
public enum RubyFixedFormat {
    private static let tens: [Double] = (0...22).map { pow(10, Double($0)) }
    /// Gay's `Quick_max`: the fast path generates at most this many digits.
    private static let quickMax = 14

    /// `value` (finite, positive) with `decimals` digits after the point, as Ruby writes it.
    public static func string(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, value > 0, decimals >= 0, let (digits, point) = quick(value, decimals) else {
            return String(format: "%.\(decimals)f", value)
        }
        var integer = "0", fraction = ""
        if point <= 0 {
            fraction = String(repeating: "0", count: -point) + digits
        } else {
            let padded = digits.count < point ? digits + String(repeating: "0", count: point - digits.count) : digits
            integer = String(padded.prefix(point))
            fraction = String(padded.dropFirst(point))
        }
        fraction = String((fraction + String(repeating: "0", count: decimals)).prefix(decimals))
        return decimals > 0 ? integer + "." + fraction : integer
    }

    /// The fast path's digits and decimal point, or nil where Gay's dtoa leaves it for the exact one.
    private static func quick(_ value: Double, _ decimals: Int) -> (String, Int)? {
        let bits = value.bitPattern
        let biased = Int((bits >> 52) & 0x7ff)
        guard biased != 0 else { return nil }
        // k, the decimal exponent, estimated from the binary one as dtoa does (and checked below when < 0).
        let mantissa = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)
        let estimate = (mantissa - 1.5) * 0.289529654602168 + 0.1760912590558 + Double(biased - 1023) * 0.301029995663981
        var k = Int(estimate)
        if estimate < 0, estimate != Double(k) { k -= 1 }
        var checkK = true
        if k >= 0, k <= 22 {
            if value < tens[k] { k -= 1 }
            checkK = false
        }
        var limit = decimals + k + 1
        let limitBelow = limit - 1
        guard limit >= 0, limit <= quickMax, abs(k) < 16 else { return nil }
        var d = value
        var errorDigits = 2.0
        if k > 0 {
            d /= tens[k]
        } else if k < 0 {
            d *= tens[-k]
        }
        if checkK, d < 1, limit > 0 {
            guard limitBelow > 0 else { return nil }
            limit = limitBelow
            k -= 1
            d *= 10
            errorDigits += 1
        }
        guard limit > 0 else { return nil }
        // eps = (ieps × d + 7) × 2^-52, then scaled to the last digit.
        var eps = errorDigits * d + 7
        eps = Double(bitPattern: eps.bitPattern - (52 << 52)) * tens[limit - 1]
        var digits: [UInt8] = []
        var index = 1
        while true {
            let whole = Int(d)
            d -= Double(whole)
            if d == 0 { limit = index }
            digits.append(UInt8(whole))
            if index == limit {
                if d > 0.5 + eps || (!(d < 0.5 - eps) && whole & 1 == 1) {
                    var position = digits.count - 1
                    while position >= 0, digits[position] == 9 {
                        digits[position] = 0
                        position -= 1
                    }
                    if position < 0 {
                        digits.insert(1, at: 0)
                        k += 1
                    } else {
                        digits[position] += 1
                    }
                }
                return (String(digits.map { Character(String($0)) }), k + 1)
            }
            index += 1
            d *= 10
        }
    }
}
