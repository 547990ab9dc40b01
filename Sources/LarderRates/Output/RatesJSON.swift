import Foundation
import LarderFormats

/// Renders Larder's rates bodies byte for byte: the Frankfurter v1 shape, keys in a fixed order.
public enum RatesJSON {
    /// `{"amount":1,"base":"EUR","date":"…","rates":{"AUD":1.6,…}}` and a newline.
    public static func rates(amount: Decimal?, base: String, date: RateDate, lines: [CrossRates.Line]) -> [UInt8] {
        var out = "{\"amount\":\(amount.map(CrossRates.format) ?? "1"),\"base\":\"\(base)\",\"date\":\"\(date)\",\"rates\":{"
        out.reserveCapacity(32 + lines.count * 16)
        for (index, line) in lines.enumerated() {
            if index > 0 { out += "," }
            out += "\"\(line.code)\":\(line.number)"
        }
        out += "}}\n"
        return Array(out.utf8)
    }

    /// The default answer for a set: every currency, published digits.
    public static func rates(for set: RateSet) -> [UInt8] {
        rates(amount: nil, base: set.base, date: set.date, lines: set.rates.map { ($0.code, $0.value.text) })
    }

    /// `{"AUD":"Australian dollar","EUR":null,…}`: every code of the set and its base, with the
    /// feed's name or null where the feed has none.
    public static func currencies(for set: RateSet) -> [UInt8] {
        var names: [String: String?] = [set.base: nil]
        for rate in set.rates { names[rate.code] = rate.name }
        var out = "{"
        for (index, code) in names.keys.sorted().enumerated() {
            if index > 0 { out += "," }
            out += "\"\(code)\":" + (names[code]!.map(quoted) ?? "null")
        }
        out += "}\n"
        return Array(out.utf8)
    }

    /// A JSON string literal (names come from upstream feeds, so escape everything that needs it).
    static func quoted(_ text: String) -> String {
        var json = JSONWriter()
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
