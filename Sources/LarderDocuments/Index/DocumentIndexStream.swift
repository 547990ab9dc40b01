public import Foundation
import LarderFormats

/// Reads a documents index as its body arrives, entry by entry, all or nothing: a JSON body is never
/// held whole nor as a whole tree; an XML body is held until `finish()` (FoundationXML reads only
/// whole documents, and `XMLScreen` must see every byte before the parser sees one).
///
/// JSON entries are judged as they complete and handed out by `feed`, in index order, so what a
/// stream holds is one unfinished entry (at most `maxEntryBytes`) and the names seen, for the
/// uniqueness rule. Before its first significant byte a body is held only under `.auto` (leading
/// whitespace, which an XML body keeps). An XML body, up to `maxBytes`, is read at `finish()`, which
/// returns all its entries. A body gives the same entries, or the same error, however it is cut into
/// chunks. Once a call throws, every later one throws the same: nothing handed out may be kept.
public struct DocumentIndexStream: Sendable {
    /// The most bytes one JSON entry (or top-level value) may take; a longer one refuses the index.
    public static let maxEntryBytes = JSONPiece.maxBytes

    private let format: DocumentsFormat
    private let indexURL: URL
    private let maxBytes: Int
    /// Bytes taken so far, counted against `maxBytes`.
    private var fed = 0
    /// How many bytes of a leading UTF-8 BOM have been seen; nil once settled either way.
    private var byteOrderMark: Int? = 0
    /// The bytes before the first significant one, kept under `.auto` in case the body is XML.
    private var leading: [UInt8] = []
    private var json: JSONIndexScanner?
    private var xml: [UInt8]?
    /// The first bytes of a body that is neither XML nor JSON, kept for the message refusing it.
    private var neither: [UInt8]?
    private var failure: DocumentIndexError?
    private var finished = false

    /// A stream reading `format` (`.auto` decides by the first byte after a BOM and whitespace: `<`
    /// is XML, `{` JSON, anything else is refused). Relative URLs, and names without a URL, resolve
    /// against `indexURL`; a body of more than `maxBytes` bytes is refused at the first byte past it.
    public init(format: DocumentsFormat, indexURL: URL, maxBytes: Int = DocumentIndexParser.defaultMaxBytes) {
        self.format = format
        self.indexURL = indexURL
        self.maxBytes = maxBytes
        if format == .xml { xml = [] }
    }

    /// The body bytes held right now: an unfinished JSON entry, or the XML body so far (or under
    /// `.auto`, the whitespace before the first significant byte).
    public var bufferedByteCount: Int {
        json?.bufferedByteCount ?? xml?.count ?? neither?.count ?? leading.count
    }

    /// Feeds the next chunk of the body; returns the entries it completed, each judged by every rule
    /// an entry alone can break (and unique so far), in index order. Throws the first violation.
    public mutating func feed(_ chunk: some Collection<UInt8>) throws(DocumentIndexError) -> [DocumentEntry] {
        let result = chunk.withContiguousStorageIfAvailable { bytes in
            Result { () throws(DocumentIndexError) in try read(bytes) }
        } ?? Array(chunk).withUnsafeBufferPointer { bytes in
            Result { () throws(DocumentIndexError) in try read(bytes) }
        }
        return try result.get()
    }

    /// The body ended: checks what only the whole shows (the index closed, its version present and 1,
    /// the list present, nothing after it) and returns `generated_at` with any entries not yet
    /// handed out (all of an XML index's).
    public mutating func finish() throws(DocumentIndexError) -> (generatedAt: Date?, documents: [DocumentEntry]) {
        try guarded { stream throws(DocumentIndexError) in
            guard !stream.finished else { throw Self.afterTheEnd }
            stream.finished = true
            if let seen = stream.byteOrderMark, seen > 0 {
                // A BOM cut short is no BOM: its bytes are the body's first.
                try stream.begin(ByteText.byteOrderMark[0], at: 0, replaying: Array(ByteText.byteOrderMark.prefix(seen)))
            }
            if stream.json != nil {
                return (try stream.json!.finish(), [])
            }
            if let body = stream.xml {
                guard ByteText.skipByteOrderMarkAndWhitespace(body) < body.endIndex else { throw .index("empty body") }
                var validator = DocumentIndexValidator(indexURL: stream.indexURL)
                let index = try validator.validate(XMLIndexReader.read(body))
                return (index.generatedAt, index.documents)
            }
            if let neither = stream.neither { throw Self.neitherError(neither) }
            throw .index("empty body")
        }
    }

    private mutating func read(_ chunk: UnsafeBufferPointer<UInt8>) throws(DocumentIndexError) -> [DocumentEntry] {
        try guarded { stream throws(DocumentIndexError) in
            guard !stream.finished else { throw Self.afterTheEnd }
            // Bytes within the limit are read first, so the error a body gets does not depend on
            // where a chunk happened to end.
            let room = max(0, stream.maxBytes - stream.fed)
            let taken = UnsafeBufferPointer(rebasing: chunk.prefix(room))
            let entries = try stream.take(taken)
            stream.fed += taken.count
            guard chunk.count <= room else { throw .index("the body is over the limit of \(stream.maxBytes) bytes") }
            return entries
        }
    }

    /// Runs `body`, keeping the first error so every later call throws it again.
    private mutating func guarded<T>(_ body: (inout Self) throws(DocumentIndexError) -> T) throws(DocumentIndexError) -> T {
        if let failure { throw failure }
        do {
            return try body(&self)
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func take(_ chunk: UnsafeBufferPointer<UInt8>) throws(DocumentIndexError) -> [DocumentEntry] {
        var index = 0
        // Before the first significant byte: a BOM, then whitespace.
        while json == nil, xml == nil, neither == nil, index < chunk.count {
            let byte = chunk[index]
            let position = fed + index
            if let seen = byteOrderMark {
                if byte == ByteText.byteOrderMark[seen] {
                    byteOrderMark = seen + 1 == 3 ? nil : seen + 1
                    keep(byte)
                    index += 1
                    continue
                }
                byteOrderMark = nil
                if seen > 0 {
                    // A BOM cut short is no BOM: its bytes are the body's first.
                    try begin(ByteText.byteOrderMark[0], at: 0, replaying: Array(ByteText.byteOrderMark.prefix(seen)))
                    break
                }
            }
            if ByteText.isWhitespace(byte) {
                keep(byte)
                index += 1
                continue
            }
            try begin(byte, at: position)
        }
        let rest = UnsafeBufferPointer(rebasing: chunk[index...])
        if json != nil { return try json!.feed(rest) }
        xml?.append(contentsOf: rest)
        if neither != nil {
            neither!.append(contentsOf: rest.prefix(max(0, Self.excerptLength - neither!.count)))
            if neither!.count >= Self.excerptLength { throw Self.neitherError(neither!) }
        }
        return []
    }

    private mutating func keep(_ byte: UInt8) {
        if format == .auto { leading.append(byte) }
    }

    /// The body's first significant byte, `first`, is at `position`: settles the format. `replayed`
    /// are bytes already taken that belong to the body proper (a BOM cut short); the rest follows.
    private mutating func begin(_ first: UInt8, at position: Int, replaying replayed: [UInt8] = []) throws(DocumentIndexError) {
        switch (format, first) {
        case (.json, _), (.auto, UInt8(ascii: "{")): json = JSONIndexScanner(indexURL: indexURL, position: position)
        // The leading bytes are XML's too (its line numbers count them).
        case (.auto, UInt8(ascii: "<")): xml = leading
        default: neither = replayed
        }
        leading = []
        if json != nil, !replayed.isEmpty {
            _ = try replayed.withUnsafeBufferPointer { bytes in
                Result { () throws(DocumentIndexError) in try json!.feed(bytes) }
            }.get()
        }
    }

    /// A call after `finish()`: the caller's mistake, refused rather than trapped on.
    private static let afterTheEnd = DocumentIndexError.index("the stream was used after the body ended")

    private static let excerptLength = 20

    private static func neitherError(_ start: [UInt8]) -> DocumentIndexError {
        let first = String(decoding: start.prefix(excerptLength), as: UTF8.self)
        return .index("the body is neither XML nor JSON (it starts with '\(ByteText.excerpt(first, limit: excerptLength))')")
    }
}
