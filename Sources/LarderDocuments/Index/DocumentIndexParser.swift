public import Foundation
import LarderFormats

/// Reads an upstream documents index (SPEC §5), XML or JSON, into a `DocumentIndex`: all or nothing.
public enum DocumentIndexParser {
    /// The default cap on an index body, as SPEC §6 sets it (64 MiB: an index of 100,000 entries fits).
    public static let defaultMaxBytes = 64 * 1024 * 1024

    /// Parses `body` as `format` (`.auto` detects it). Relative URLs, and names without a URL, resolve
    /// against `indexURL`. Throws on the first violation of any rule; a refused index changes nothing.
    public static func parse(_ body: [UInt8], format: DocumentsFormat, indexURL: URL,
                             maxBytes: Int = defaultMaxBytes) throws(DocumentIndexError) -> DocumentIndex {
        // Checked before anything reads the body, whatever its format claims.
        guard body.count <= maxBytes else {
            throw .index("the body is \(body.count) bytes, over the limit of \(maxBytes)")
        }
        let raw: RawDocumentIndex
        switch try resolvedFormat(format, of: body) {
        case .xml: raw = try XMLIndexReader.read(body)
        case .json, .auto: raw = try JSONIndexReader.read(body)
        }
        return try DocumentIndexValidator(indexURL: indexURL).validate(raw)
    }

    /// `format` itself, or for `.auto` the format of the first byte after an optional UTF-8 BOM and
    /// whitespace: `<` is XML, `{` is JSON; any other body (empty, a bare JSON value, plain text) is
    /// refused rather than guessed at.
    static func resolvedFormat(_ format: DocumentsFormat, of body: [UInt8]) throws(DocumentIndexError) -> DocumentsFormat {
        let start = ByteText.skipByteOrderMarkAndWhitespace(body)
        guard start < body.endIndex else { throw .index("empty body") }
        guard format == .auto else { return format }
        switch body[start] {
        case UInt8(ascii: "<"): return .xml
        case UInt8(ascii: "{"): return .json
        default:
            let first = String(decoding: body[start..<min(start + 20, body.endIndex)], as: UTF8.self)
            throw .index("the body is neither XML nor JSON (it starts with '\(ByteText.excerpt(first, limit: 20))')")
        }
    }
}
