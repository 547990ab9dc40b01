/// Where a v2 query reads: the provider's stored rows, the materialized blend over them, and the
/// week and month rollups.
public struct V2Sources: Sendable {
    public let raw: any V2RowSource
    public let blended: any V2RowSource
    /// The buckets a chunk of a range needs, complete.
    public let rollup: @Sendable (V2RatesPlan.Group, ClosedRange<Int>) -> V2Rollup

    public init(
        raw: any V2RowSource, blended: any V2RowSource, rollup: @escaping @Sendable (V2RatesPlan.Group, ClosedRange<Int>) -> V2Rollup
    ) {
        self.raw = raw
        self.blended = blended
        self.rollup = rollup
    }
}
