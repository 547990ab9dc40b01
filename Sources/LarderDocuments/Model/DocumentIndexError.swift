import LarderFormats

/// Why a whole documents index was refused: one short message naming the entry and field at fault.
public struct DocumentIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// For example `index: document 3 ('a.txt'): sha256 is not 64 hex digits`.
    public let message: String

    /// Wraps `message` as it is.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// A problem with the index as a whole.
    package static func index(_ problem: String) -> DocumentIndexError {
        DocumentIndexError("index: \(problem)")
    }

    /// A problem with the document at `position` (counted from 1, as people count entries), shown
    /// with its name when it has one, so an operator can find the entry at once.
    static func document(_ position: Int, name: String?, _ problem: String) -> DocumentIndexError {
        let label = name.map { " ('\(ByteText.excerpt($0, limit: 60))')" } ?? ""
        return DocumentIndexError("index: document \(position)\(label): \(problem)")
    }
}
