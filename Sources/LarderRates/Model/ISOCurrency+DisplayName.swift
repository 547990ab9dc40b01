extension ISOCurrency {
    /// The name Larder shows for `code` everywhere (`/currencies`, the status page): the table's (withdrawn codes included), as
    /// Frankfurter's; else the feed's (a code the table lacks, from a non-ECB feed); else the code itself.
    public static func displayName(of code: String, feedName: String?) -> String {
        if let currency = known(code) { return currency.name }
        if let feedName, !feedName.isEmpty { return feedName }
        return code
    }
}
