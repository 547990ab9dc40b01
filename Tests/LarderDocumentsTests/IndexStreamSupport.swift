import Foundation
import LarderDocuments
import LarderFuzzing
import Testing

/// What reading one body came to: the whole index, or the refusal.
typealias IndexOutcome = Result<DocumentIndex, DocumentIndexError>

extension Result where Success == DocumentIndex, Failure == DocumentIndexError {
    static func refused(_ message: String) -> Self {
        .failure(DocumentIndexError(message))
    }
}

/// How a body is cut into the chunks a stream is fed.
enum Cutting: CustomStringConvertible {
    case whole
    case byteByByte
    /// Sizes from 0 (an empty chunk) to `largest`, drawn from a generator seeded with `seed`.
    case random(seed: UInt64, largest: Int)

    var description: String {
        switch self {
        case .whole: "whole"
        case .byteByByte: "byte by byte"
        case .random(let seed, let largest): "random chunks (seed \(seed), up to \(largest))"
        }
    }

    /// The ways every body is cut when chunkings are compared.
    static let all: [Cutting] = [.whole, .byteByByte, .random(seed: 1, largest: 7), .random(seed: 2, largest: 64),
                                 .random(seed: 3, largest: 4096)]

    func chunks(_ body: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .whole:
            return [body[...]]
        case .byteByByte:
            return body.indices.map { body[$0...$0] }
        case .random(let seed, let largest):
            var generator = SplitMix64(seed: seed)
            var chunks: [ArraySlice<UInt8>] = []
            var start = 0
            while start < body.count {
                let end = min(body.count, start + Int.random(in: 0...largest, using: &generator))
                chunks.append(body[start..<end])
                start = end
            }
            return chunks
        }
    }
}

/// Feeds `body` to a stream in the chunks `cutting` makes, calling `afterEach` with the stream and the
/// entries each chunk completed.
func streamed(_ body: [UInt8], format: DocumentsFormat = .auto, cutting: Cutting,
              maxBytes: Int = DocumentIndexParser.defaultMaxBytes,
              afterEach: (DocumentIndexStream, [DocumentEntry]) -> Void = { _, _ in }) -> IndexOutcome {
    IndexOutcome { () throws(DocumentIndexError) in
        var stream = DocumentIndexStream(format: format, indexURL: indexURL, maxBytes: maxBytes)
        var documents: [DocumentEntry] = []
        for chunk in cutting.chunks(body) {
            let completed = try stream.feed(chunk)
            afterEach(stream, completed)
            documents += completed
        }
        let ending = try stream.finish()
        return DocumentIndex(generatedAt: ending.generatedAt, documents: documents + ending.documents)
    }
}

/// Expects `body` read the same way, entries or refusal, whole, byte by byte and in random chunks, and
/// the same as `DocumentIndexParser.parse`; returns that outcome.
@discardableResult
func expectSameInEveryCutting(_ body: [UInt8], format: DocumentsFormat = .auto,
                              sourceLocation: SourceLocation = #_sourceLocation) -> IndexOutcome {
    let parsed = IndexOutcome { () throws(DocumentIndexError) in
        try DocumentIndexParser.parse(body, format: format, indexURL: indexURL)
    }
    for cutting in Cutting.all {
        let outcome = streamed(body, format: format, cutting: cutting)
        #expect(outcome == parsed, "\(cutting) of \(String(decoding: body.prefix(120), as: UTF8.self).debugDescription)",
                sourceLocation: sourceLocation)
    }
    return parsed
}

/// A small seedable generator, so a test's random chunks are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Expects the stream to accept exactly what the whole-tree reader it replaced accepts, as the same
/// index. (Refusals may name another fault: a stream meets a body's faults in body order.)
func expectAgreesWithOracle(_ body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let oracle = IndexOutcome { () throws(DocumentIndexError) in try JSONIndexOracle.parse(body, indexURL: indexURL) }
    let stream = streamed(body, format: .json, cutting: .whole)
    switch (oracle, stream) {
    case (.success(let whole), .success(let streamed)):
        #expect(whole == streamed, sourceLocation: sourceLocation)
    case (.failure, .failure):
        break
    default:
        Issue.record("the whole-tree reader: \(oracle); the stream: \(stream); body \(String(decoding: body, as: UTF8.self).debugDescription)",
                     sourceLocation: sourceLocation)
    }
}
