import Foundation
import LarderDocuments
import LarderTesting
import Testing

/// The index URL every test resolves against, in a folder so relative references have something to climb.
let indexURL = URL(string: "https://up.example.com/docs/v1/index.json")!

/// The repository's sample upstream, found from this file so tests run from any working directory.
enum Examples {
    static let documents = repositoryRoot.appending(path: "Examples/upstream/documents")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: documents.appending(path: name)))
    }
}

/// The two index formats, so one table of entry cases runs through both readers.
enum IndexFormat: String, CaseIterable, CustomTestStringConvertible {
    case xml, json
    var testDescription: String { rawValue }
    var documentsFormat: DocumentsFormat { self == .xml ? .xml : .json }
}

/// One `<document>` / JSON object as attribute-style text. JSON writes every value as a string except
/// `size`, which is written as a raw literal (so `1.5` or `-1` reach the number rules).
typealias Fields = KeyValuePairs<String, String>

/// A whole index in `format` holding `entries`, with `version` and `generated_at` at the top.
func indexBody(_ format: IndexFormat, _ entries: [Fields], version: String? = "1",
               generatedAt: String? = "2026-05-01T12:00:00Z") -> String {
    switch format {
    case .xml:
        var root = "<documents"
        if let version { root += " version=\"\(xmlEscaped(version))\"" }
        if let generatedAt { root += " generated_at=\"\(xmlEscaped(generatedAt))\"" }
        let children = entries.map { fields in
            "  <document" + fields.map { " \($0.key)=\"\(xmlEscaped($0.value))\"" }.joined() + "/>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(root)>\n\(children.joined())</documents>\n"
    case .json:
        var top: [String] = []
        if let version { top.append("\"version\":\(version)") }
        if let generatedAt { top.append("\"generated_at\":\(jsonString(generatedAt))") }
        let objects = entries.map { fields in
            "{" + fields.map { "\(jsonString($0.key)):\($0.key == "size" ? $0.value : jsonString($0.value))" }
                .joined(separator: ",") + "}"
        }
        top.append("\"documents\":[\n" + objects.joined(separator: ",\n") + "\n]")
        return "{" + top.joined(separator: ",") + "}\n"
    }
}

/// Escapes what XML attribute syntax needs; every other character, controls included, is written as
/// itself so the parser, not this helper, decides about it.
func xmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: "\"", with: "&quot;")
}

/// A JSON string literal: quotes, backslashes and C0 controls escaped, everything else as UTF-8.
func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

func parse(_ body: String, format: DocumentsFormat = .auto, base: URL = indexURL) throws(DocumentIndexError) -> DocumentIndex {
    try DocumentIndexParser.parse(Array(body.utf8), format: format, indexURL: base)
}

/// The refusal message for `body`, or nil when it was (wrongly) accepted.
func refusal(_ body: [UInt8], format: DocumentsFormat = .auto, maxBytes: Int = DocumentIndexParser.defaultMaxBytes) -> String? {
    do {
        _ = try DocumentIndexParser.parse(body, format: format, indexURL: indexURL, maxBytes: maxBytes)
        return nil
    } catch {
        return error.message
    }
}

func refusal(_ body: String, format: DocumentsFormat = .auto) -> String? {
    refusal(Array(body.utf8), format: format)
}

/// The refusal message for an index in `format` holding `entries`, read through `auto` detection.
func refusal(_ format: IndexFormat, _ entries: [Fields]) -> String? {
    refusal(indexBody(format, entries))
}

/// True when `date` is `seconds` after 1970 to the millisecond; fractions pass through `Double`, so
/// two routes to the same instant may differ in the last bit.
func isInstant(_ date: Date?, _ seconds: Double) -> Bool {
    guard let date else { return false }
    return abs(date.timeIntervalSince1970 - seconds) < 0.000_5
}

/// Expects `valid` accepted whole and refused when cut at every byte before its final newline
/// (the byte after the closing brace or root tag, without which the index is still whole).
func expectEveryCutRefused(_ valid: String, format: DocumentsFormat, sourceLocation: SourceLocation = #_sourceLocation) {
    let bytes = Array(valid.utf8)
    #expect(bytes.last == UInt8(ascii: "\n"), sourceLocation: sourceLocation)
    let end = bytes.count - 1
    #expect(refusal(Array(bytes[..<end]), format: format) == nil, "the uncut index is valid", sourceLocation: sourceLocation)
    for cut in 1..<end {
        #expect(refusal(Array(bytes[..<cut]), format: format) != nil, "accepted when cut at byte \(cut)", sourceLocation: sourceLocation)
    }
}

/// Two entries, one with size and timestamp, one fetched from elsewhere: the valid index the refusal suites cut and bend.
let twoEntries: [Fields] = [
    ["name": "a.txt", "size": "12", "updated_at": "2026-04-30T17:22:05Z"],
    ["name": "b.txt", "url": "https://cdn.example.net/b.txt"],
]
