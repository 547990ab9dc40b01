package import Foundation
import LarderFormats
package import LarderDocuments

/// The whole-body reading of a JSON index that `DocumentIndexStream` replaced: one `JSONValue` tree
/// of the body, then the same type and value rules. Kept only as the oracle the stream is held to
/// (`make fuzz`'s `json-index-stream` target and the tests): never used to read an upstream's index.
package enum JSONIndexOracle {
    /// Reads `body` whole with the strict reader of LarderFormats (invalid UTF-8, duplicate keys,
    /// trailing content and deep nesting are refused there), then judges it.
    package static func parse(_ body: [UInt8], indexURL: URL) throws(DocumentIndexError) -> DocumentIndex {
        guard ByteText.skipByteOrderMarkAndWhitespace(body) < body.endIndex else { throw .index("empty body") }
        let document: JSONValue
        do {
            document = try JSONReader.read(body)
        } catch {
            throw .index("json: \(error.message)")
        }
        guard case .object(let fields) = document else {
            throw .index("json: the index is \(document.kind), not an object")
        }
        var index = RawDocumentIndex()
        index.version = try JSONIndexFields.versionText(fields["version"])
        try IndexShape.checkVersion(index.version)
        // Sorted so that, of several unknown keys, the same one is always named.
        for key in fields.keys.sorted() where key != "documents" && !IndexShape.indexFields.contains(key) {
            throw .index("unknown field '\(ByteText.excerpt(key))'")
        }
        index.generatedAt = try JSONIndexFields.generatedAtText(fields["generated_at"])
        // A missing list is refused rather than read as empty: an empty list empties the mirror.
        guard case .array(let list)? = fields["documents"] else {
            throw .index(fields["documents"].map { "documents is \($0.kind), not an array" } ?? "documents is missing")
        }
        try IndexShape.checkCount(list.count)
        index.documents.reserveCapacity(list.count)
        for (offset, element) in list.enumerated() {
            index.documents.append(try JSONIndexFields.entry(element, position: offset + 1))
        }
        var validator = DocumentIndexValidator(indexURL: indexURL)
        return try validator.validate(index)
    }
}
