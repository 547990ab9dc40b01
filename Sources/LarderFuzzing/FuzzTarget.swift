/// One parser of untrusted bytes under fuzzing: its name (the corpus folder's) and the check one
/// input must pass. Refusing an input is never a failure; a check fails only when a property the
/// parser promises does not hold, or when the parser crashes.
public struct FuzzTarget: Sendable {
    public let name: String
    /// Runs the real parsing code on `input` and throws the first property that does not hold.
    public let check: @Sendable (_ input: [UInt8]) throws(PropertyViolation) -> Void

    init(_ name: String, check: @escaping @Sendable (_ input: [UInt8]) throws(PropertyViolation) -> Void) {
        self.name = name
        self.check = check
    }

    /// Every target, in the order `make fuzz` lists them.
    public static let all: [FuzzTarget] = [
        .path, .ratesQuery, .byteRange, .conditional, .acceptEncoding, .bearerToken, .jsonReader, .xmlScreen, .ecbRates,
        .pipeRates, .jsonRates, .ecbSDMXRates, .frankfurterRates, .jsonIndex, .jsonIndexStream, .xmlIndex, .rfc3339, .documentName, .documentURL, .duration,
        .ratesPipeline, .documentsPipeline,
    ]

    /// The target of that name, if there is one.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// A property of a parser that one input broke: what should have held, and what happened instead.
public struct PropertyViolation: Error, Sendable, CustomStringConvertible {
    public let message: String

    public var description: String { message }
}

/// Throws `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyViolation) {
    if !condition { throw PropertyViolation(message: message()) }
}

/// Splits the fuzzer's bytes into the parts a target feeds to different inputs (a header and the
/// size it is resolved against, a token and the header presenting it): at newlines, the last part
/// taking the rest, so one input file stays readable and the fuzzer can grow each part.
func parts(_ input: [UInt8], _ count: Int) -> [String] {
    var pieces = input.split(separator: UInt8(ascii: "\n"), maxSplits: count - 1, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    while pieces.count < count { pieces.append("") }
    return pieces
}

/// The text the fuzzer's bytes spell, invalid UTF-8 repaired as an HTTP server's decoding repairs it.
func text(_ input: [UInt8]) -> String {
    String(decoding: input, as: UTF8.self)
}
