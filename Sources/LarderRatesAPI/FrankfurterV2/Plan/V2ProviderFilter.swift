/// Frankfurter's `providers=`: the stored rows of the named providers only (`Rate.where(provider:)`), read
/// through the same days. Rows that name no provider (a one-provider feed's) are `fallback`'s.
struct V2ProviderFilter: V2RowSource {
    let source: any V2RowSource
    let keys: Set<String>
    let fallback: String

    var count: Int { source.count }

    func day(at index: Int) -> Int { source.day(at: index) }

    func rows(at index: Int) -> [V2Observation] { source.rows(at: index).filter(accepts) }

    func accepts(_ row: V2Observation) -> Bool { keys.contains(row.provider.isEmpty ? fallback : row.provider) }
}
