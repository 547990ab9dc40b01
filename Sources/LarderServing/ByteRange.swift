/// What a `Range` header (RFC 9110 §14) asks of a representation of a known size.
///
/// Only a single `bytes` range is honoured. Everything the RFC lets a server ignore — no header,
/// another unit, invalid syntax, several ranges — is `.none`, and the whole body is served with 200.
public enum ByteRange: Equatable, Sendable {
    /// No range applies: serve the whole representation.
    case none
    /// Send `length` bytes from `offset` with 206; `length` is never 0.
    case satisfiable(offset: UInt64, length: UInt64)
    /// The range lies outside the representation: 416.
    case unsatisfiable

    /// Resolves the `Range` field value `header` (nil when absent) against `size` bytes.
    ///
    /// Positions of any length are read exactly: a last-pos past the end is clamped to the last
    /// byte and a first-pos past it is unsatisfiable, however many digits either has, so a huge
    /// number can neither overflow nor turn a valid header into an ignored one.
    public init(_ header: String?, size: UInt64) {
        guard let header else {
            self = .none
            return
        }
        self = Self.resolve(Array(header.utf8)[...], size: size)
    }

    private static func resolve(_ field: ArraySlice<UInt8>, size: UInt64) -> ByteRange {
        let field = trimmed(field)
        guard let equals = field.firstIndex(of: UInt8(ascii: "=")), isBytesUnit(field[..<equals]) else {
            return .none
        }
        var found: Spec?
        // `1#range-spec`: elements separated by commas with optional whitespace; empty ones are ignored (RFC 9110 §5.6.1).
        for element in field[(equals + 1)...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let item = trimmed(element)
            if item.isEmpty { continue }
            guard found == nil, let spec = Spec(item) else { return .none }
            found = spec
        }
        return found?.resolve(size: size) ?? .none
    }

    /// One `range-spec`: `first-last`, `first-`, or the suffix `-length`.
    private enum Spec {
        case from(first: Position, last: Position?)
        case suffix(Position)

        init?(_ text: ArraySlice<UInt8>) {
            guard let dash = text.firstIndex(of: UInt8(ascii: "-")) else { return nil }
            let before = text[..<dash], after = text[(dash + 1)...]
            if before.isEmpty {
                guard let length = Position(after) else { return nil }
                self = .suffix(length)
                return
            }
            guard let first = Position(before) else { return nil }
            if after.isEmpty {
                self = .from(first: first, last: nil)
                return
            }
            // A last-pos before the first-pos makes the whole header invalid (RFC 9110 §14.1.1).
            guard let last = Position(after), !(last < first) else { return nil }
            self = .from(first: first, last: last)
        }

        func resolve(size: UInt64) -> ByteRange {
            switch self {
            case .from(let first, let last):
                guard size > 0, first.value < size else { return .unsatisfiable }
                let end = min(last?.value ?? size - 1, size - 1)
                return .satisfiable(offset: first.value, length: end - first.value + 1)
            case .suffix(let length):
                guard length.value > 0 else { return .unsatisfiable }
                // The RFC calls a non-zero suffix of an empty representation satisfiable, yet no
                // Content-Range can describe zero bytes; the whole (empty) body with 200 is the answer.
                guard size > 0 else { return .none }
                let count = min(length.value, size)
                return .satisfiable(offset: size - count, length: count)
            }
        }
    }

    /// A decimal position of any length: its value saturated at `UInt64.max`, ordered exactly by its digits.
    private struct Position {
        let value: UInt64
        let significant: ArraySlice<UInt8>

        init?(_ digits: ArraySlice<UInt8>) {
            guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return nil
            }
            significant = digits.drop { $0 == UInt8(ascii: "0") }
            var value: UInt64 = 0
            for digit in significant {
                let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
                if overflowA || overflowB {
                    value = .max
                    break
                }
                value = sum
            }
            self.value = value
        }

        static func < (a: Position, b: Position) -> Bool {
            if a.significant.count != b.significant.count { return a.significant.count < b.significant.count }
            return a.significant.lexicographicallyPrecedes(b.significant)
        }
    }

    /// The unit token, compared without regard to ASCII case.
    private static func isBytesUnit(_ unit: ArraySlice<UInt8>) -> Bool {
        unit.count == 5 && zip(unit, "bytes".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var slice = text.drop(while: isSpace)
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}
