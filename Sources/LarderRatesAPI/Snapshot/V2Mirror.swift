public import Foundation

/// A Frankfurter v2 mirror as v2 serves it: every provider's rows, ascending by day, and the
/// providers as the upstream's `/v2/providers` listed them.
public struct V2Mirror: Sendable {
    public let rows: any V2RowSource
    public let providers: [V2ProviderInfo]
    /// When the rows last changed.
    public let lastModified: Date
    /// The providers' coverage when the store keeps it (else read from the rows on first use).
    public let coverage: ProviderCoverage?
    /// How many rows there are (the identity rows left out): the version the fleet shares.
    public let rowCount: Int

    public init(
        rows: any V2RowSource, providers: [V2ProviderInfo], lastModified: Date, coverage: ProviderCoverage? = nil, rowCount: Int
    ) {
        self.rows = rows
        self.providers = providers
        self.lastModified = lastModified
        self.coverage = coverage
        self.rowCount = rowCount
    }
}
