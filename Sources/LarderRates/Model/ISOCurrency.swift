/// A currency of ISO 4217 (and the few others Frankfurter names), from the Ruby money gem's table.
///
/// The table is generated into `ISOCurrency+Table.swift` by `tools/generate/generate-currencies.py`, so the
/// names Larder answers are the ones Frankfurter answers, on every route and on the status page.
public struct ISOCurrency: Sendable, Hashable {
    /// The ISO 4217 code, upper case: `USD`.
    public let code: String
    /// The ISO 4217 numeric code as the table writes it (`840`, `008`); nil when the table has none.
    public let numericCode: String?
    /// The English name: `United States Dollar`.
    public let name: String
    /// The usual symbol (`$`); nil when the table has none.
    public let symbol: String?

    init(code: String, numericCode: String?, name: String, symbol: String?) {
        self.code = code
        self.numericCode = numericCode
        self.name = name
        self.symbol = symbol
    }

    /// The currency of an upper-case code, or nil when the table has none.
    public static func named(_ code: String) -> ISOCurrency? {
        byCode[code]
    }

    private static let byCode: [String: ISOCurrency] =
        Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })
}
