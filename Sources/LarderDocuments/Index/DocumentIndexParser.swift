public import Foundation

/// Reads an upstream documents index (SPEC §5), XML or JSON, into a `DocumentIndex`: all or nothing.
public enum DocumentIndexParser {
    /// The default cap on an index body, as SPEC §6 sets it (64 MiB: an index of 100,000 entries fits).
    public static let defaultMaxBytes = 64 * 1024 * 1024

    /// Parses a whole `body` as `format` (`.auto` detects it), through a `DocumentIndexStream` fed it
    /// at once, so a body gives the same index or error whether it comes whole or in chunks. Relative
    /// URLs, and names without a URL, resolve against `indexURL`. Throws on the first violation of any
    /// rule; a refused index changes nothing.
    public static func parse(_ body: [UInt8], format: DocumentsFormat, indexURL: URL,
                             maxBytes: Int = defaultMaxBytes) throws(DocumentIndexError) -> DocumentIndex {
        var stream = DocumentIndexStream(format: format, indexURL: indexURL, maxBytes: maxBytes)
        let documents = try stream.feed(body)
        let ending = try stream.finish()
        return DocumentIndex(version: 1, generatedAt: ending.generatedAt, documents: documents + ending.documents)
    }
}
