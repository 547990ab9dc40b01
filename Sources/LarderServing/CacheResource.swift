/// What a cache holds, as metrics and `/status` name it: the raw value is the `resource` label.
public enum CacheResource: String, Sendable, CaseIterable {
    case rates
    /// The documents index (and the mirror as a whole).
    case documents
    /// One mirrored document file.
    case document
}
