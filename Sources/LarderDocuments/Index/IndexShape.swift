import LarderFormats

/// Checks both format readers make while reading, before any entry is looked at, so a body that is
/// not a version-1 index, or is absurdly long, stops early with the reason that matters most.
///
/// Unknown fields (XML attributes, JSON keys) are refused rather than ignored, at both levels. The
/// index is versioned, so a new field comes with a new `version`; and a misspelt optional field
/// (`sha265`, `updated-at`) would otherwise silently switch off a download check or the staleness rule.
package enum IndexShape {
    /// The only index version this Larder reads.
    static let supportedVersion = "1"

    /// At most this many documents; far beyond any real index, it bounds the work one body can cause.
    static let maxDocuments = 100_000

    /// The top-level fields of an index besides `documents` (XML root attributes, JSON keys).
    package static let indexFields: Set<String> = ["version", "generated_at"]

    /// Refuses a missing version and every version but 1, whatever else the body holds.
    package static func checkVersion(_ version: String?) throws(DocumentIndexError) {
        guard let version else { throw .index("version is missing") }
        guard version == supportedVersion else {
            throw .index("version '\(ByteText.excerpt(version))' is not supported (only \(supportedVersion))")
        }
    }

    package static func checkCount(_ count: Int) throws(DocumentIndexError) {
        guard count <= maxDocuments else { throw .index("more than \(maxDocuments) documents") }
    }

    /// The error for an entry field neither format defines.
    static func unknownField(_ key: String, position: Int, name: String?) -> DocumentIndexError {
        .document(position, name: name, "unknown field '\(ByteText.excerpt(key))'")
    }
}
