import Foundation
import LarderFormats

/// What is wrong with one field's value; the validator adds which entry it belongs to.
package struct FieldProblem: Error {
    package let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// The value rules of the optional entry fields, the same for XML attributes and JSON values.
enum FieldRules {
    /// 2^53: the largest size every JSON consumer (and a `Double`) still holds exactly.
    static let maxSize = 9_007_199_254_740_992

    /// `0` or `[1-9][0-9]*` up to 2^53: JSON's integer grammar, so XML and JSON accept the same text.
    /// Signs, fractions, exponents (`1e3`), leading zeros and spaces are refused.
    static func size(_ text: String) throws(FieldProblem) -> Int {
        let bytes = Array(text.utf8)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard !bytes.isEmpty, bytes.count <= 16, bytes.allSatisfy(isDigit),
              bytes.count == 1 || bytes[0] != UInt8(ascii: "0"),
              let value = Int(text), value <= maxSize else {
            throw FieldProblem("size '\(ByteText.excerpt(text))' is not a whole number of bytes from 0 to 2^53")
        }
        return value
    }

    /// Exactly 64 hex digits, either case, returned in lowercase so comparisons are plain equality.
    static func sha256(_ text: String) throws(FieldProblem) -> String {
        let isHex = { (byte: UInt8) in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        guard text.utf8.count == 64, text.utf8.allSatisfy(isHex) else {
            throw FieldProblem("sha256 is not 64 hex digits")
        }
        return text.lowercased()
    }

    static func contentType(_ text: String) throws(FieldProblem) -> String {
        guard MediaTypeRule.isValid(text) else {
            throw FieldProblem("content_type '\(ByteText.excerpt(text))' is not a media type (type/subtype; parameters)")
        }
        return text
    }

    static func instant(_ text: String, field: String) throws(FieldProblem) -> Date {
        guard let instant = RFC3339.instant(text) else {
            throw FieldProblem("\(field) '\(ByteText.excerpt(text))' is not an RFC 3339 timestamp")
        }
        return instant
    }
}
