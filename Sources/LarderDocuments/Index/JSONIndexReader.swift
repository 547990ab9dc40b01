import LarderFormats

/// Reads a JSON index (`{"version":1,"generated_at":…,"documents":[{…}]}`) with the strict reader of
/// LarderFormats: invalid UTF-8, duplicate keys, trailing content and deep nesting are refused there.
/// Types are checked here (`size` a number, the rest strings; `null` means absent), values later.
enum JSONIndexReader {
    static func read(_ body: [UInt8]) throws(DocumentIndexError) -> RawDocumentIndex {
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
        index.version = try versionText(fields["version"])
        try IndexShape.checkVersion(index.version)
        // Sorted so that, of several unknown keys, the same one is always named.
        for key in fields.keys.sorted() where key != "documents" && !IndexShape.indexFields.contains(key) {
            throw .index("unknown field '\(ByteText.excerpt(key))'")
        }
        index.generatedAt = try text(fields["generated_at"]) { .index("generated_at is \($0), not a string") }
        // A missing list is refused rather than read as empty: an empty list empties the mirror.
        guard case .array(let list)? = fields["documents"] else {
            throw .index(fields["documents"].map { "documents is \($0.kind), not an array" } ?? "documents is missing")
        }
        try IndexShape.checkCount(list.count)
        index.documents.reserveCapacity(list.count)
        for (offset, element) in list.enumerated() {
            index.documents.append(try entry(element, position: offset + 1))
        }
        return index
    }

    /// The version as its literal text: `1` passes the version check, `1.0`, `"1"` and `true` do not.
    private static func versionText(_ value: JSONValue?) throws(DocumentIndexError) -> String? {
        switch value {
        case nil, .null?: nil
        case .number(let literal)?: literal
        case let other?: throw .index("version is \(other.kind), not a number")
        }
    }

    private static func entry(_ element: JSONValue, position: Int) throws(DocumentIndexError) -> RawDocumentEntry {
        guard case .object(let members) = element else {
            throw .document(position, name: nil, "is \(element.kind), not an object")
        }
        let name: String? = if case .string(let text)? = members["name"] { text } else { nil }
        var entry = RawDocumentEntry()
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            guard let field = EntryField(rawValue: key) else {
                throw IndexShape.unknownField(key, position: position, name: name)
            }
            switch (field, value) {
            case (_, .null):
                continue
            case (.size, .number(let literal)):
                entry[field] = literal
            case (.size, _):
                throw .document(position, name: name, "size is \(value.kind), not a number")
            case (_, .string(let text)):
                entry[field] = text
            default:
                throw .document(position, name: name, "\(field.rawValue) is \(value.kind), not a string")
            }
        }
        return entry
    }

    private static func text(_ value: JSONValue?, orFail fail: (String) -> DocumentIndexError) throws(DocumentIndexError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw fail(other.kind)
        }
    }
}
