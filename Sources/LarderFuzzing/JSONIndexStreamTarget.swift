import LarderDocuments

extension FuzzTarget {
    /// The JSON index read as it streams in (`DocumentIndexStream`). The input is a body, then
    /// optionally a NUL and the chunk sizes to cut it into (a byte each, 0 an empty chunk, taken in
    /// turn). Cut so, byte by byte and whole, the body reads the same: the same entries or the same
    /// refusal, never holding more than one entry's bytes; and it is accepted exactly when the
    /// whole-tree reader the stream replaced accepts it, as the same index.
    static let jsonIndexStream = FuzzTarget("json-index-stream") { input throws(PropertyViolation) in
        let split = input.lastIndex(of: 0)
        let body = Array(input[..<(split ?? input.endIndex)])
        let sizes = split.map { Array(input[($0 + 1)...]) } ?? []
        let oracle = Result { () throws(DocumentIndexError) in try JSONIndexOracle.parse(body, indexURL: indexURL) }
        for format in [DocumentsFormat.json, .auto] {
            let whole = Result { () throws(DocumentIndexError) in
                try DocumentIndexParser.parse(body, format: format, indexURL: indexURL)
            }
            var cuttings = [chunks(body, sizes: sizes)]
            // A call per byte: once (auto reads JSON with the same scanner), on the small bodies the
            // fuzzer mostly makes.
            if format == .json, body.count <= 8192 { cuttings.append(body.indices.map { body[$0...$0] }) }
            for cutting in cuttings {
                let cut = try streamed(cutting, format: format)
                try expect(cut == whole, "\(format) in \(cutting.count) chunks: \(summary(cut)); whole: \(summary(whole))")
            }
            guard format == .json else { continue }
            // No refusal is the stream's alone: an entry past its 64 KiB bound needs a longer input
            // than the fuzzer makes (-max_len=65536).
            switch (whole, oracle) {
            case (.success(let streamed), .success(let read)):
                try expect(streamed == read, "the stream and the whole-tree reader read different indexes")
            case (.failure, .failure):
                break
            default:
                throw PropertyViolation(message: "the stream: \(summary(whole)); the whole-tree reader: \(summary(oracle))")
            }
        }
        if case .success(let index) = oracle { try checkIndex(index) }
    }

    /// Feeds `chunks` to a stream, checking it never holds more than one entry's bytes.
    private static func streamed(_ chunks: [ArraySlice<UInt8>], format: DocumentsFormat) throws(PropertyViolation) -> Result<DocumentIndex, DocumentIndexError> {
        var held = 0
        let reading = Result { () throws(DocumentIndexError) in
            var stream = DocumentIndexStream(format: format, indexURL: indexURL)
            var documents: [DocumentEntry] = []
            for chunk in chunks {
                documents += try stream.feed(chunk)
                held = max(held, stream.bufferedByteCount)
            }
            let ending = try stream.finish()
            return DocumentIndex(generatedAt: ending.generatedAt, documents: documents + ending.documents)
        }
        // Under auto an XML body, and the whitespace before any body, are held by design.
        try expect(format == .auto || held <= DocumentIndexStream.maxEntryBytes, "held \(held) bytes at once")
        return reading
    }

    /// `body` cut by `sizes` in turn (by a fixed pattern when there are none); what is left after
    /// 4,096 chunks goes in one, so a large body replayed in tests stays quick.
    private static func chunks(_ body: [UInt8], sizes: [UInt8]) -> [ArraySlice<UInt8>] {
        let pattern = sizes.isEmpty ? [7, 1, 3, 0, 64] : sizes.map(Int.init)
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < body.count, chunks.count < 4096 {
            let end = min(body.count, start + pattern[chunks.count % pattern.count])
            chunks.append(body[start..<end])
            start = end
        }
        if start < body.count { chunks.append(body[start...]) }
        return chunks
    }
}

/// What reading one index body came to, short enough for a failure message.
private func summary(_ reading: Result<DocumentIndex, DocumentIndexError>) -> String {
    switch reading {
    case .success(let index): "accepted, \(index.documents.count) documents"
    case .failure(let error): "refused (\(error.message))"
    }
}
