public import Foundation

/// A positive rate exactly as the upstream published it: the digits kept for output, the `Decimal` for arithmetic.
///
/// Only plain decimal notation is accepted (`1.0862`, `310.70`, `1`): no sign, no exponent, no
/// comma, no leading or trailing dot, at most 30 significant digits, and never zero. The value is
/// built from the text by `Decimal(string:)` and never passes through `Double`.
public struct PublishedDecimal: Sendable, Hashable, CustomStringConvertible {
    /// The published text, emitted verbatim when no arithmetic is applied (`310.70` stays `310.70`).
    public let text: String
    public let value: Decimal

    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, Self.isDigit(first), let last = bytes.last, Self.isDigit(last),
              bytes.count <= 32 else { return nil }
        var dots = 0
        for byte in bytes where !Self.isDigit(byte) {
            guard byte == UInt8(ascii: "."), dots == 0 else { return nil }
            dots += 1
        }
        // Leading zeros are only allowed as the single zero before a dot (`0.5`, not `007`).
        if bytes.count > 1, first == UInt8(ascii: "0"), bytes[1] != UInt8(ascii: ".") { return nil }
        guard let value = Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX")),
              value > 0 else { return nil }
        self.text = String(text)
        self.value = value
    }

    public var description: String { text }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
