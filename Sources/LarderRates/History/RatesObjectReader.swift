/// Renders and reads back the rates object a stored day keeps: `{"AUD":1.6,"BGN":1.9558}`, codes
/// sorted, published digits. Only Larder writes these, so the reader checks the shape and refuses
/// (nil) anything else rather than guessing.
public enum RatesObjectReader {
    /// The object of a set's published rates.
    public static func object(for set: RateSet) -> [UInt8] {
        RatesJSON.object(lines: set.rates.map { ($0.code, $0.value.text) })
    }

    public static func rates(_ object: ArraySlice<UInt8>) -> [CurrencyRate]? {
        var rates: [CurrencyRate] = []
        var index = object.startIndex
        func next() -> UInt8? {
            guard index < object.endIndex else { return nil }
            defer { index += 1 }
            return object[index]
        }
        guard next() == UInt8(ascii: "{") else { return nil }
        if index < object.endIndex, object[index] == UInt8(ascii: "}") { return index + 1 == object.endIndex ? [] : nil }
        while true {
            guard next() == UInt8(ascii: "\""), index + 4 <= object.endIndex,
                  object[index + 3] == UInt8(ascii: "\""), object[index + 4] == UInt8(ascii: ":") else { return nil }
            let code = String(decoding: object[index..<index + 3], as: UTF8.self)
            index += 5
            let start = index
            while index < object.endIndex, object[index] != UInt8(ascii: ","), object[index] != UInt8(ascii: "}") {
                index += 1
            }
            guard index < object.endIndex, CurrencyRate.isValidCode(code),
                  let value = PublishedDecimal(String(decoding: object[start..<index], as: UTF8.self)) else { return nil }
            rates.append(CurrencyRate(code: code, value: value))
            if next() == UInt8(ascii: "}") { return index == object.endIndex ? rates : nil }
        }
    }
}
