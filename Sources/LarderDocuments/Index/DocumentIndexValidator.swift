import Foundation
import LarderFormats

/// Turns a raw index into a `DocumentIndex` by the rules of SPEC §5, all or nothing: the first
/// violation throws, naming the entry (counted from 1) and the field.
struct DocumentIndexValidator {
    /// Where the index was fetched from; relative document URLs, and bare names, resolve against it.
    let indexURL: URL

    func validate(_ raw: RawDocumentIndex) throws(DocumentIndexError) -> DocumentIndex {
        // The readers check these early; checked again so this type alone guarantees its output.
        try IndexShape.checkVersion(raw.version)
        try IndexShape.checkCount(raw.documents.count)
        var generatedAt: Date?
        if let text = raw.generatedAt {
            do {
                generatedAt = try FieldRules.instant(text, field: "generated_at")
            } catch {
                throw .index(error.message)
            }
        }
        // An empty list is valid: an upstream may list nothing, and the mirror then removes everything.
        var documents: [DocumentEntry] = []
        documents.reserveCapacity(raw.documents.count)
        var positionByName: [String: Int] = [:]
        for (offset, entry) in raw.documents.enumerated() {
            let document = try self.document(entry, position: offset + 1)
            // Names become file names, and case-insensitive file systems would merge these two.
            let key = DocumentName.caseFolded(document.name)
            if let first = positionByName[key] {
                throw .document(offset + 1, name: document.name,
                                "name duplicates document \(first) ('\(documents[first - 1].name)') ignoring case")
            }
            positionByName[key] = offset + 1
            documents.append(document)
        }
        return DocumentIndex(version: 1, generatedAt: generatedAt, documents: documents)
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
