extension ISOCurrency {
    /// Currencies the money gem keeps outside its ISO table (withdrawn ones, and the British Crown
    /// dependencies' pounds), which Frankfurter names all the same: the ECB quoted EEK, HRK, LTL,
    /// LVL and MTL until they joined the euro, and GGP, IMP and JEP are pegged to GBP. Values as
    /// the gem writes them (its non-ISO codes have an empty numeric code).
    static let withdrawn: [ISOCurrency] = [
        ISOCurrency(code: "EEK", numericCode: "233", name: "Estonian Kroon", symbol: "KR"),
        ISOCurrency(code: "GGP", numericCode: "", name: "Guernsey Pound", symbol: "£"),
        ISOCurrency(code: "HRK", numericCode: "191", name: "Croatian Kuna", symbol: "kn"),
        ISOCurrency(code: "IMP", numericCode: "", name: "Isle of Man Pound", symbol: "£"),
        ISOCurrency(code: "JEP", numericCode: "", name: "Jersey Pound", symbol: "£"),
        ISOCurrency(code: "LTL", numericCode: "440", name: "Lithuanian Litas", symbol: "Lt"),
        ISOCurrency(code: "LVL", numericCode: "428", name: "Latvian Lats", symbol: "Ls"),
        ISOCurrency(code: "MTL", numericCode: "470", name: "Maltese Lira", symbol: "₤"),
    ]

    /// The currency of a code in the ISO table or among the withdrawn ones; nil when neither has it.
    public static func known(_ code: String) -> ISOCurrency? {
        named(code) ?? withdrawn.first { $0.code == code }
    }
}
