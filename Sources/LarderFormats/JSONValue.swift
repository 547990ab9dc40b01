/// A JSON value as RFC 8259 reads it, numbers kept as their source text so no digit is lost to `Double`.
public enum JSONValue: Sendable, Equatable {
    /// Members by key; the reader has refused duplicate keys, so none was lost.
    case object([String: JSONValue])
    /// Elements in document order.
    case array([JSONValue])
    /// The decoded text, escapes resolved.
    case string(String)
    /// The literal exactly as written, already checked against the RFC 8259 number grammar.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// The `null` literal, kept distinct from an absent member.
    case null

    /// A short name for error messages ("a string", "an object").
    public var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
