import LarderFormats

/// One JSON value being cut out of an index body as its bytes arrive (a key, a top-level value, one
/// entry), kept until its end is known and then handed whole to the strict `JSONReader`.
///
/// Its end is found lexically, never by judging it: an object, array or string ends where the
/// brackets outside strings balance (escapes skipped), anything else (a number, a literal, a stray
/// character) at the first byte that cannot continue one. Mismatched or missing brackets are left to
/// `JSONReader`, which meets them at the same byte the whole-body reader would.
struct JSONPiece: Sendable {
    /// What the value is to the index, which decides how it is read and what an error names.
    enum Role: Sendable {
        /// A top-level value other than an object: not an index.
        case root
        /// A key of the top-level object.
        case key
        /// The value of a top-level member.
        case member(String)
        /// An element of `documents`, at this position (counted from 1).
        case entry(Int)
    }

    /// The most bytes one piece may take: far beyond any real entry (a name is at most 128 bytes, a
    /// media type 255, a URL rarely past 2 KiB), it bounds what a stream holds whatever the body.
    static let maxBytes = 64 * 1024

    let role: Role
    /// The body position of its first byte.
    let start: Int
    private(set) var bytes: [UInt8] = []
    /// Open brackets outside strings; the piece ends when a closing one brings this back to zero.
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Whether the value is a number, literal or stray byte, which ends where its characters stop
    /// rather than at a closing bracket or quote; known from the first byte.
    private var isBare = false

    init(_ role: Role, start: Int) {
        self.role = role
        self.start = start
    }

    /// Takes the piece's bytes from `chunk[from...]`: returns the index just past the last byte taken,
    /// and whether the piece is complete (a bare value's end is the next byte, which is not taken).
    /// Throws once the piece is longer than `maxBytes`.
    mutating func take(_ chunk: UnsafeBufferPointer<UInt8>, from: Int) throws(DocumentIndexError) -> (next: Int, complete: Bool) {
        var index = from
        var complete = false
        var isFirst = bytes.isEmpty
        // At most one byte past the limit is looked at: enough to know the limit is passed.
        let stop = min(chunk.count, from + Self.maxBytes + 1 - bytes.count)
        while !complete, index < stop {
            let byte = chunk[index]
            if isFirst {
                // The first byte always belongs to the piece, whatever it is: `JSONReader` judges it.
                isFirst = false
                isBare = Self.isBareStart(byte)
                if !isBare { _ = scan(byte) }
            } else if isBare {
                guard Self.continuesBare(byte) else { complete = true; break }
            } else {
                complete = scan(byte)
            }
            index += 1
        }
        guard bytes.count + (index - from) <= Self.maxBytes else { throw tooLong() }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[from..<index]))
        return (index, complete)
    }

    /// Follows strings and brackets over one byte; returns true when it closes the piece's value.
    private mutating func scan(_ byte: UInt8) -> Bool {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                return depth == 0
            }
            return false
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            return depth == 0
        default: break
        }
        return false
    }

    private static func isBareStart(_ byte: UInt8) -> Bool {
        byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[") && byte != UInt8(ascii: "\"")
    }

    /// The bytes a number or literal is made of, and any non-ASCII byte: a superset, so the reader,
    /// not this cut, decides where the value really ends (`12x` is `12`, then a stray `x`).
    private static func continuesBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            true
        default:
            false
        }
    }

    private func tooLong() -> DocumentIndexError {
        switch role {
        case .root: .index("json: the index is not an object")
        case .key: .index("json: byte \(start): a key of more than \(Self.maxBytes) bytes")
        case .member(let key): .index("the value of '\(ByteText.excerpt(key))' takes more than \(Self.maxBytes) bytes")
        case .entry(let position): .document(position, name: nil, "takes more than \(Self.maxBytes) bytes of JSON")
        }
    }
}
