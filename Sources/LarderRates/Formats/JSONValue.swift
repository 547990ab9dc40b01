/// A JSON value as RFC 8259 reads it, numbers kept as their source text so no digit is lost to `Double`.
enum JSONValue: Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// The literal exactly as written, already checked against the RFC 8259 number grammar.
    case number(String)
    case bool(Bool)
    case null

    /// A short name for error messages ("a string", "an object").
    var kind: String {
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
