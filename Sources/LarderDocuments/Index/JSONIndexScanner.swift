import Foundation
import LarderFormats

/// The JSON half of `DocumentIndexStream`: follows the top-level object and its `documents` array
/// byte by byte, checking their structure itself (braces, brackets, commas, colons, what may follow
/// the index), and cuts every value they hold (a key, `version`, `generated_at`, one entry) into a
/// `JSONPiece` for the strict `JSONReader`. So at most one such value is held at a time, and an entry
/// is judged, then handed on, as soon as its closing brace arrives.
///
/// It refuses what the whole-body reader refused, with its messages and byte positions; a body with
/// several faults may be refused for another one than before, as a stream meets them in body order.
struct JSONIndexScanner: Sendable {
    /// What the next significant byte may be.
    private enum Expecting: Sendable {
        case root, firstKey, key, colon, memberValue, memberEnd, firstEntry, entry, entryEnd, nothing
    }

    private var expecting = Expecting.root
    /// The body position of the next byte.
    private var position: Int
    private var piece: JSONPiece?
    /// The key whose value comes next.
    private var member = ""
    private var keys: Set<String> = []
    private var version: String?
    private var generatedAt: Date?
    /// What a top-level value other than an object was, refused once it has been read whole.
    private var rootKind: String?
    private var validator: DocumentIndexValidator
    /// Entries judged since the last `feed` returned.
    private var completed: [DocumentEntry] = []

    /// Starts at the first significant byte of the body, at `position` (after a BOM and whitespace).
    init(indexURL: URL, position: Int) {
        validator = DocumentIndexValidator(indexURL: indexURL)
        self.position = position
    }

    /// The bytes held: the unfinished piece's.
    var bufferedByteCount: Int { piece?.bytes.count ?? 0 }

    /// Reads `chunk`, returning the entries it completed.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) throws(DocumentIndexError) -> [DocumentEntry] {
        var index = 0
        while index < chunk.count {
            if piece != nil {
                let (next, complete) = try piece!.take(chunk, from: index)
                position += next - index
                index = next
                if complete { try finishPiece() }
            } else if try structure(chunk[index]) {
                position += 1
                index += 1
            }
        }
        let done = completed
        completed = []
        return done
    }

    /// The body ended: refuses an unfinished value or structure, a non-object, a missing version or
    /// list; returns `generated_at`.
    mutating func finish() throws(DocumentIndexError) -> Date? {
        if piece != nil { try finishPiece() }
        switch expecting {
        case .nothing: break
        case .firstKey, .key: throw syntax("expected a string key")
        default: throw syntax("unexpected end of input")
        }
        if let rootKind { throw .index("json: the index is \(rootKind), not an object") }
        try IndexShape.checkVersion(version)
        guard keys.contains("documents") else { throw .index("documents is missing") }
        return generatedAt
    }

    /// Takes one byte of structure, or starts a piece at it (returning false: the piece takes it).
    private mutating func structure(_ byte: UInt8) throws(DocumentIndexError) -> Bool {
        if ByteText.isWhitespace(byte) { return true }
        switch (expecting, byte) {
        case (.root, UInt8(ascii: "{")): expecting = .firstKey
        case (.root, _): return start(.root)
        case (.firstKey, UInt8(ascii: "}")): expecting = .nothing
        case (.firstKey, UInt8(ascii: "\"")), (.key, UInt8(ascii: "\"")): return start(.key)
        case (.firstKey, _), (.key, _): throw syntax("expected a string key")
        case (.colon, UInt8(ascii: ":")): expecting = .memberValue
        case (.colon, _): throw syntax("expected ':'")
        case (.memberValue, UInt8(ascii: "[")) where member == "documents": expecting = .firstEntry
        case (.memberValue, _): return start(.member(member))
        case (.memberEnd, UInt8(ascii: ",")): expecting = .key
        case (.memberEnd, UInt8(ascii: "}")): expecting = .nothing
        case (.memberEnd, _): throw syntax("expected '}'")
        case (.firstEntry, UInt8(ascii: "]")), (.entryEnd, UInt8(ascii: "]")): expecting = .memberEnd
        case (.firstEntry, _), (.entry, _):
            // Checked before the entry is read: the limit bounds the work one body can cause.
            try IndexShape.checkCount(validator.accepted + 1)
            return start(.entry(validator.accepted + 1))
        case (.entryEnd, UInt8(ascii: ",")): expecting = .entry
        case (.entryEnd, _): throw syntax("expected ']'")
        case (.nothing, _): throw syntax("unexpected content after the JSON value")
        }
        return true
    }

    private mutating func start(_ role: JSONPiece.Role) -> Bool {
        piece = JSONPiece(role, start: position)
        return false
    }

    /// Reads the piece just cut and applies it to the index.
    private mutating func finishPiece() throws(DocumentIndexError) {
        guard let piece else { return }
        self.piece = nil
        switch piece.role {
        case .root:
            rootKind = try read(piece, depth: 0, then: "unexpected content after the JSON value").kind
            expecting = .nothing
        case .key:
            // A key piece starts with a quote, so it reads as a string or not at all.
            guard case .string(let key) = try read(piece, depth: 1, then: "expected ':'") else {
                throw .index("json: byte \(piece.start): expected a string key")
            }
            guard keys.insert(key).inserted else {
                throw .index("json: byte \(piece.start): duplicate key \"\(ByteText.excerpt(key))\"")
            }
            guard key == "documents" || IndexShape.indexFields.contains(key) else {
                throw .index("unknown field '\(ByteText.excerpt(key))'")
            }
            member = key
            expecting = .colon
        case .member(let key):
            let value = try read(piece, depth: 1, then: "expected '}'")
            switch key {
            case "version":
                version = try JSONIndexFields.versionText(value)
                // A null version is a missing one, refused once the body has shown it has no other.
                if version != nil { try IndexShape.checkVersion(version) }
            case "generated_at":
                generatedAt = try DocumentIndexValidator.generatedAt(JSONIndexFields.generatedAtText(value))
            default:
                throw .index("documents is \(value.kind), not an array")
            }
            expecting = .memberEnd
        case .entry(let position):
            let value = try read(piece, depth: 2, then: "expected ']'")
            completed.append(try validator.accept(JSONIndexFields.entry(value, position: position)))
            expecting = .entryEnd
        }
    }

    /// The piece's value, read by `JSONReader` inside `depth` containers. A bare value may stop short
    /// of the piece (`12x`): what follows it is then refused as the structure around it refuses it.
    private func read(_ piece: JSONPiece, depth: Int, then unexpected: String) throws(DocumentIndexError) -> JSONValue {
        let value: JSONValue
        let end: Int
        do {
            (value, end) = try JSONReader.readValue(piece.bytes, at: piece.start, depth: depth)
        } catch {
            throw .index("json: \(error.message)")
        }
        guard end == piece.bytes.count else {
            throw .index("json: byte \(piece.start + end): \(unexpected)")
        }
        return value
    }

    private func syntax(_ message: String) -> DocumentIndexError {
        .index("json: byte \(position): \(message)")
    }
}
