import LarderDocuments

extension FuzzTarget {
    /// The JSON index reader (SPEC §5).
    static let jsonIndex = indexTarget("json-index", format: .json)
}
