public import Foundation

/// One document of an upstream index (SPEC §5), its fields checked and its URL resolved.
public struct DocumentEntry: Sendable, Hashable {
    /// The document's name, valid by `DocumentName.isValid` and unique in its index ignoring ASCII case.
    public var name: String
    /// Where the document is downloaded from: absolute, http or https, with dot segments removed.
    public var url: URL
    /// The size in bytes the download must have, when the index says.
    public var size: Int?
    /// The SHA-256 the download must have, as 64 lowercase hex digits, when the index says.
    public var sha256: String?
    /// The media type the upstream declares, as written (`text/plain; charset=utf-8`).
    public var contentType: String?
    /// When the upstream says the document was created.
    public var createdAt: Date?
    /// When the upstream says the document last changed; drives the staleness rule of SPEC §4.2.
    public var updatedAt: Date?

    /// Builds an entry as given; nothing is checked here (`DocumentIndexParser` produces checked ones).
    public init(name: String, url: URL, size: Int? = nil, sha256: String? = nil, contentType: String? = nil,
                createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.name = name
        self.url = url
        self.size = size
        self.sha256 = sha256
        self.contentType = contentType
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
