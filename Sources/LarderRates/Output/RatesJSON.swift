public import Foundation
import LarderFormats

/// Renders Larder's rates bodies byte for byte: the Frankfurter v1 shape, keys in a fixed order.
public enum RatesJSON {
    /// `{"amount":1,"base":"EUR","date":"…","rates":{"AUD":1.6,…}}` and a newline.
    public static func rates(amount: Decimal?, base: String, date: RateDate, lines: [CrossRates.Line]) -> [UInt8] {
        rates(amountText: amount.map(CrossRates.format), base: base, date: date, lines: lines)
    }

    /// The same with the amount's JSON text given (nil: 1), as the Frankfurter dialect writes it.
    public static func rates(amountText: String?, base: String, date: RateDate, lines: [CrossRates.Line]) -> [UInt8] {
        let head = "{\"amount\":\(amountText ?? "1"),\"base\":\"\(base)\",\"date\":\"\(date)\",\"rates\":"
        return Array(head.utf8) + object(lines: lines) + Array("}\n".utf8)
    }

    /// A time series (Frankfurter v1): `{"amount":1,"base":"EUR","start_date":"…","end_date":"…","rates":{"…":{…},…}}`
    /// and a newline; `days` are ascending, each with its rates object as `object(lines:)` renders it.
    public static func series(
        amount: Decimal?, base: String, start: RateDate, end: RateDate, days: [(RateDate, ArraySlice<UInt8>)]
    ) -> [UInt8] {
        series(amountText: amount.map(CrossRates.format), base: base, start: start, end: end, days: days)
    }

    /// The same with the amount's JSON text given (nil: 1), as the Frankfurter dialect writes it.
    public static func series(
        amountText: String?, base: String, start: RateDate, end: RateDate, days: [(RateDate, ArraySlice<UInt8>)]
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 + days.reduce(0) { $0 + $1.1.count + 16 })
        out += Array("{\"amount\":\(amountText ?? "1"),\"base\":\"\(base)\",".utf8)
        out += Array("\"start_date\":\"\(start)\",\"end_date\":\"\(end)\",\"rates\":{".utf8)
        for (index, (date, object)) in days.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += Array("\"\(date)\":".utf8)
            out += object
        }
        out += Array("}}\n".utf8)
        return out
    }

    /// `{"AUD":1.6,…}`: one day's rates object, as a day answer and a series hold it.
    public static func object(lines: [CrossRates.Line]) -> [UInt8] {
        var out = "{"
        out.reserveCapacity(2 + lines.count * 16)
        for (index, line) in lines.enumerated() {
            if index > 0 { out += "," }
            out += "\"\(line.code)\":\(line.number)"
        }
        out += "}"
        return Array(out.utf8)
    }

    /// The default answer for a set: every currency, published digits.
    public static func rates(for set: RateSet) -> [UInt8] {
        rates(amount: nil, base: set.base, date: set.date, lines: set.rates.map { ($0.code, $0.value.text) })
    }

    /// `{"AUD":"Australian Dollar","EUR":"Euro",…}`: every code of the set and its base with its name
    /// (`ISOCurrency.displayName`), as Frankfurter v1 answers `/currencies`.
    public static func currencies(for set: RateSet) -> [UInt8] {
        var names: [String: String] = [set.base: ISOCurrency.displayName(of: set.base, feedName: nil)]
        for rate in set.rates { names[rate.code] = ISOCurrency.displayName(of: rate.code, feedName: rate.name) }
        var out = "{"
        for (index, code) in names.keys.sorted().enumerated() {
            if index > 0 { out += "," }
            out += "\"\(code)\":" + quoted(names[code]!)
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
