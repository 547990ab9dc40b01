public import Foundation

/// A whole, valid documents index (SPEC §5): accepted all or nothing by `DocumentIndexParser`.
public struct DocumentIndex: Sendable, Hashable {
    /// The index format version; only 1 exists.
    public var version: Int
    /// When the upstream says it produced the index.
    public var generatedAt: Date?
    /// Every listed document, in index order. Empty is valid: an upstream may list nothing.
    public var documents: [DocumentEntry]

    /// Builds an index as given; nothing is checked here.
    public init(version: Int = 1, generatedAt: Date? = nil, documents: [DocumentEntry]) {
        self.version = version
        self.generatedAt = generatedAt
        self.documents = documents
    }
}
