import Foundation
import LarderFormats

extension FuzzTarget {
    /// The strict JSON reader, against Foundation's `JSONSerialization` as the second opinion: each
    /// accepts what the other accepts, but for the refusals the reader makes on purpose (nesting
    /// past `maxDepth`, duplicate keys, lone surrogates, trailing commas, other encodings than
    /// UTF-8); both read the same structure, strings (but U+FEFF, which Foundation drops) and
    /// numbers (to Foundation's rounding); and what the reader returns writes back to itself.
    static let jsonReader = FuzzTarget("json-reader") { input throws(PropertyViolation) in
        let ours: JSONValue
        do throws(FormatError) {
            ours = try JSONReader.read(input)
        } catch {
            let theirs = try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])
            try expect(theirs == nil || refusedOnPurpose(error.message, input),
                       "refused what Foundation reads: \(error.message)")
            return
        }
        do {
            let theirs = try JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])
            try agree(ours, theirs, at: "$")
        } catch let violation as PropertyViolation {
            throw violation
        } catch {
            throw PropertyViolation(message: "read what Foundation refuses (\(error))")
        }
        var writer = JSONWriter()
        write(ours, to: &writer)
        let again = try? JSONReader.read(writer.bytes)
        try expect(again == ours, "written as \(String(decoding: writer.bytes, as: UTF8.self).debugDescription), reads back differently")
    }

    /// The reader's deliberate refusals, as its messages name them. UTF-16 and UTF-32, which
    /// Foundation detects by their zero bytes (`00 33` is UTF-16 for `3`), are not UTF-8 JSON: an
    /// input with a NUL byte or one that is not valid UTF-8 is refused on purpose too. So is a
    /// trailing comma (`[1,]`), which RFC 8259 forbids and Foundation lets through.
    private static func refusedOnPurpose(_ message: String, _ input: [UInt8]) -> Bool {
        guard String(validating: input, as: UTF8.self) != nil, !input.contains(0), !hasTrailingComma(input) else { return true }
        // Past Double's range Foundation refuses most numbers (`1e400`) but reads some (`270.385011e400`).
        return ["nesting deeper", "duplicate key", "surrogate", "out of range"].contains { message.contains($0) }
    }

    /// Strings and keys compared without U+FEFF, which Foundation drops from some and not others.
    private static func withoutBOM(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{FEFF}", with: "")
    }

    /// A `,` followed, past blanks, by `]` or `}`, outside strings.
    private static func hasTrailingComma(_ input: [UInt8]) -> Bool {
        var inString = false, escaped = false, afterComma = false
        for byte in input {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if afterComma, byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { return true }
            if byte == UInt8(ascii: "\"") { inString = true }
            if !ByteText.isWhitespace(byte) { afterComma = byte == UInt8(ascii: ",") }
        }
        return false
    }

    private static func agree(_ ours: JSONValue, _ theirs: Any, at path: String) throws(PropertyViolation) {
        switch ours {
        case .object(let members):
            guard let raw = theirs as? [String: Any] else { throw mismatch(path, ours, theirs) }
            let object = Dictionary(raw.map { (withoutBOM($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            // Keys as Foundation reads them, without U+FEFF; two that differ only by it are one key there.
            let keyed = Dictionary(members.map { (withoutBOM($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            guard keyed.count == members.count else { return }
            try expect(object.count == keyed.count, "\(path): \(members.count) members, Foundation \(object.count)")
            for (key, value) in keyed {
                guard let other = object[key] else { throw PropertyViolation(message: "\(path): Foundation lacks \(key.debugDescription)") }
                try agree(value, other, at: path + "." + key)
            }
        case .array(let elements):
            guard let array = theirs as? [Any], array.count == elements.count else { throw mismatch(path, ours, theirs) }
            for (index, (value, other)) in zip(elements, array).enumerated() {
                try agree(value, other, at: path + "[\(index)]")
            }
        case .string(let string):
            // Foundation drops U+FEFF inside strings (a BOM only belongs before the text); the reader keeps it.
            let other = theirs as? String
            try expect(other.map(withoutBOM) == withoutBOM(string),
                       "\(path): \(string.debugDescription) vs \(theirs)")
        case .number(let literal):
            try agreeOnNumber(literal, theirs, at: path)
        case .bool(let value):
            try expect((theirs as? Bool) == value || (theirs as? NSNumber)?.boolValue == value, "\(path): \(value) vs \(theirs)")
        case .null:
            try expect(theirs is NSNull, "\(path): null vs \(theirs)")
        }
    }

    /// The literal the reader kept means the number Foundation read: exactly for integers Foundation
    /// holds exactly, as the nearest `Double` otherwise.
    private static func agreeOnNumber(_ literal: String, _ theirs: Any, at path: String) throws(PropertyViolation) {
        guard let number = theirs as? NSNumber else { throw PropertyViolation(message: "\(path): \(literal) vs \(theirs)") }
        if let integer = Int64(literal) {
            try expect(number.int64Value == integer, "\(path): \(literal) vs \(number)")
            return
        }
        let ours = Double(literal) ?? .nan
        let theirs = number.doubleValue
        // Swift's Double(_:) rounds correctly; Foundation's conversion does not always, and its error
        // grows with the digits (two units in the last place at 17 digits, more at 130), so the two
        // agree to 1e-12: far below any digit the reader could have kept wrong.
        let tolerance = abs(ours) * 1e-12
        try expect(abs(ours - theirs) <= tolerance, "\(path): \(literal) is \(ours), Foundation \(theirs)")
    }

    private static func mismatch(_ path: String, _ ours: JSONValue, _ theirs: Any) -> PropertyViolation {
        PropertyViolation(message: "\(path): \(ours.kind) vs Foundation's \(type(of: theirs))")
    }

    /// The JSON text of a value, keys sorted, numbers as their literal.
    static func write(_ value: JSONValue, to writer: inout JSONWriter) {
        switch value {
        case .object(let members):
            writer.raw("{")
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { writer.raw(",") }
                writer.key(key)
                write(members[key]!, to: &writer)
            }
            writer.raw("}")
        case .array(let elements):
            writer.raw("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.raw(",") }
                write(element, to: &writer)
            }
            writer.raw("]")
        case .string(let string): writer.string(string)
        case .number(let literal): writer.raw(literal)
        case .bool(let value): writer.raw(value ? "true" : "false")
        case .null: writer.raw("null")
        }
    }
}
