import Foundation
import LarderRates
import LarderTesting
import Testing

/// Where the test inputs live, found from this file so the tests run from any working directory.
enum Paths {
    /// The shared real-upstream fixtures, which are not part of the repository and may be absent.
    static let fixtures = sharedFixtures("rates")
    static let examples = repositoryRoot.appending(path: "Examples/upstream/rates")

    static var haveFixtures: Bool {
        FileManager.default.fileExists(atPath: fixtures.appending(path: "README.md").path)
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appending(path: name)))
    }

    static func example(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: examples.appending(path: name)))
    }
}

/// A fixed fetch instant, 2026-11-21T09:30:00Z, so the pipe format's date is predictable.
let fetchInstant = Date(timeIntervalSince1970: 1_795_253_400)

func parse(_ text: String, as format: RatesFormat = .auto) throws(RatesFormatError) -> ParsedRates {
    try RatesParser.parse(Array(text.utf8), format: format, fetchedAt: fetchInstant)
}

/// The refusal message for `bytes`, or nil when the payload was (wrongly) accepted.
func refusal(_ bytes: [UInt8], as format: RatesFormat) -> String? {
    do {
        _ = try RatesParser.parse(bytes, format: format, fetchedAt: fetchInstant)
        return nil
    } catch {
        return error.message
    }
}

func refusal(_ text: String, as format: RatesFormat) -> String? {
    refusal(Array(text.utf8), as: format)
}

extension RateSet {
    /// The published text of one currency's rate, as the tests compare them.
    func text(of code: String) -> String? {
        rates.first { $0.code == code }?.value.text
    }
}

extension RateSet {
    /// The rates of `codes` as their upstream text, in order (nil where absent): one expectation for many rates.
    func texts(_ codes: String...) -> [String?] {
        codes.map { text(of: $0) }
    }
}

/// Expects `body` refused as `format`, with a message that names the format (`ecb: …`).
func expectRefusal(_ name: String, _ body: String, as format: RatesFormat, sourceLocation: SourceLocation = #_sourceLocation) {
    let message = refusal(body, as: format)
    #expect(message != nil, "\(name) was accepted", sourceLocation: sourceLocation)
    #expect(message?.hasPrefix("\(format.rawValue): ") ?? true, "\(name): \(message ?? "")", sourceLocation: sourceLocation)
}
