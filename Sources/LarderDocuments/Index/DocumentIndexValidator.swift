package import Foundation
import LarderFormats

/// Judges an index by the rules of SPEC §5, all or nothing: the first violation throws, naming the
/// entry (counted from 1) and the field. Entries are taken one at a time, in index order, so a stream
/// judges each as it arrives and a whole raw index goes through exactly the same rules.
package struct DocumentIndexValidator: Sendable {
    /// Where the index was fetched from; relative document URLs, and bare names, resolve against it.
    let indexURL: URL

    /// How many entries have been accepted so far; the next one is at position `accepted + 1`.
    private(set) var accepted = 0

    /// The first entry of each case-folded name: its position and its name as written.
    private var firstByName: [String: (position: Int, name: String)] = [:]

    package init(indexURL: URL) {
        self.indexURL = indexURL
    }

    /// A whole raw index (the XML reader's, or the JSON oracle's) into a `DocumentIndex`.
    package mutating func validate(_ raw: RawDocumentIndex) throws(DocumentIndexError) -> DocumentIndex {
        // The readers check these early; checked again so this type alone guarantees its output.
        try IndexShape.checkVersion(raw.version)
        try IndexShape.checkCount(raw.documents.count)
        let generatedAt = try Self.generatedAt(raw.generatedAt)
        // An empty list is valid: an upstream may list nothing, and the mirror then removes everything.
        var documents: [DocumentEntry] = []
        documents.reserveCapacity(raw.documents.count)
        for entry in raw.documents {
            documents.append(try accept(entry))
        }
        return DocumentIndex(version: 1, generatedAt: generatedAt, documents: documents)
    }

    /// The next entry in index order: its fields judged, the count and the name's uniqueness checked.
    mutating func accept(_ entry: RawDocumentEntry) throws(DocumentIndexError) -> DocumentEntry {
        let position = accepted + 1
        try IndexShape.checkCount(position)
        let document = try self.document(entry, position: position)
        // Names become file names, and case-insensitive file systems would merge these two.
        let key = DocumentName.caseFolded(document.name)
        if let first = firstByName[key] {
            throw .document(position, name: document.name,
                            "name duplicates document \(first.position) ('\(first.name)') ignoring case")
        }
        firstByName[key] = (position, document.name)
        accepted = position
        return document
    }

    /// The index's `generated_at`, when it has one, as an instant.
    static func generatedAt(_ text: String?) throws(DocumentIndexError) -> Date? {
        guard let text else { return nil }
        do {
            return try FieldRules.instant(text, field: "generated_at")
        } catch {
            throw .index(error.message)
        }
    }

    private func document(_ entry: RawDocumentEntry, position: Int) throws(DocumentIndexError) -> DocumentEntry {
        guard let name = entry[.name] else { throw .document(position, name: nil, "name is required") }
        guard DocumentName.isValid(name) else {
            throw .document(position, name: nil, "name '\(ByteText.excerpt(name, limit: 60))' is not a valid document name"
                + " (1-\(DocumentName.maxLength) of A-Z a-z 0-9 . _ -, starting with a letter or digit)")
        }
        do {
            // Without a url the name itself is the reference, so `a.txt` sits next to the index.
            return DocumentEntry(
                name: name,
                url: try DocumentURLRule.resolve(entry[.url] ?? name, against: indexURL),
                size: try entry[.size].map(FieldRules.size),
                sha256: try entry[.sha256].map(FieldRules.sha256),
                contentType: try entry[.contentType].map(FieldRules.contentType),
                createdAt: try entry[.createdAt].map { text throws(FieldProblem) in try FieldRules.instant(text, field: "created_at") },
                updatedAt: try entry[.updatedAt].map { text throws(FieldProblem) in try FieldRules.instant(text, field: "updated_at") }
            )
        } catch {
            throw .document(position, name: name, error.message)
        }
    }
}
