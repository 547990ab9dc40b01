import LarderDocuments

extension FuzzTarget {
    /// The XML index reader (SPEC §5).
    static let xmlIndex = indexTarget("xml-index", format: .xml)
}
