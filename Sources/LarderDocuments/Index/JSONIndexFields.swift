package import LarderFormats

/// The JSON index's type rules, value by value: `version` a number, `generated_at` a string, each
/// entry an object of known keys whose `size` is a number and the rest strings (`null` means absent).
/// Values are judged later, by `DocumentIndexValidator`, the same for XML and JSON.
package enum JSONIndexFields {
    /// The version as its literal text: `1` passes the version check, `1.0`, `"1"` and `true` do not.
    package static func versionText(_ value: JSONValue?) throws(DocumentIndexError) -> String? {
        switch value {
        case nil, .null?: nil
        case .number(let literal)?: literal
        case let other?: throw .index("version is \(other.kind), not a number")
        }
    }

    package static func generatedAtText(_ value: JSONValue?) throws(DocumentIndexError) -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let text)?: text
        case let other?: throw .index("generated_at is \(other.kind), not a string")
        }
    }

    /// One element of `documents`, at `position` (counted from 1).
    package static func entry(_ element: JSONValue, position: Int) throws(DocumentIndexError) -> RawDocumentEntry {
        guard case .object(let members) = element else {
            throw .document(position, name: nil, "is \(element.kind), not an object")
        }
        let name: String? = if case .string(let text)? = members["name"] { text } else { nil }
        var entry = RawDocumentEntry()
        // Sorted so that, of several faulty fields, the same one is always named.
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
}
