/// The fields one index entry may carry, by their name in both formats (XML attribute, JSON key).
enum EntryField: String, CaseIterable, Sendable {
    case name, url, size, sha256
    case contentType = "content_type"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
}

/// An index as a format reader found it: the shape checked, every value still text to be judged by
/// `DocumentIndexValidator`, so both formats obey exactly one set of rules.
package struct RawDocumentIndex: Sendable {
    /// The version as written (`1`; a JSON reader has already required a number literal).
    package var version: String?
    package var generatedAt: String?
    package var documents: [RawDocumentEntry] = []

    package init() {}
}

/// One entry as written; an absent field and a JSON `null` are both missing from `fields`.
package struct RawDocumentEntry: Sendable {
    var fields: [EntryField: String] = [:]

    subscript(_ field: EntryField) -> String? {
        get { fields[field] }
        set { fields[field] = newValue }
    }
}
