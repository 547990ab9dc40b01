import LarderHTTP

extension FuzzTarget {
    /// `Accept-Encoding` (each line one field of the request). The byte-level parser agrees with a
    /// plain split-and-compare reading of the same rules, for each field (as text and as the C string
    /// a lean route reads) and for all of them as one list; a `gzip;q=0` added anywhere always refuses gzip.
    static let acceptEncoding = FuzzTarget("accept-encoding") { input throws(PropertyViolation) in
        let fields = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        var headers = HTTPHeaders()
        for field in fields {
            headers.add("Accept-Encoding", field)
            let gzip = AcceptEncoding.prefersGzip(field)
            try expect(gzip == referencePrefersGzip(field),
                       "\(field.debugDescription): the parser says \(gzip), the reference the opposite")
            if !field.utf8.contains(0) {
                try expect(field.withCString { AcceptEncoding.prefersGzip(cString: $0) } == gzip,
                           "\(field.debugDescription) read as a C string gives another answer")
            }
        }
        let joined = fields.joined(separator: ",")
        try expect(AcceptEncoding.prefersGzip(headers) == referencePrefersGzip(joined),
                   "the fields \(fields.map(\.debugDescription)) as one list disagree with the reference")
        for refusal in ["gzip;q=0", "X-GZIP ; Q=0.000"] {
            var refused = headers
            refused.add("accept-encoding", refusal)
            let named = refusal.debugDescription
            try expect(!AcceptEncoding.prefersGzip(refused), "gzip chosen despite \(named) in another field")
            try expect(!AcceptEncoding.prefersGzip(joined + "," + refusal), "gzip chosen despite a trailing \(named)")
            try expect(!AcceptEncoding.prefersGzip(refusal + "," + joined), "gzip chosen despite a leading \(named)")
        }
    }

    /// The rules of `AcceptEncoding`, read the slow and obvious way: split on `,` then `;`, trim,
    /// lowercase, and look each weight up in a table of every valid qvalue spelling.
    private static func referencePrefersGzip(_ value: String) -> Bool {
        var lowest: [String: Int] = [:]
        for element in Array(value.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let pieces = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map(lowercasedTrimmed)
            var coding = pieces[0]
            if coding == "x-gzip" { coding = "gzip" }
            guard ["gzip", "identity", "*"].contains(coding) else { continue }
            let weights = pieces.dropFirst().map { $0.hasPrefix("q=") ? qvalues[String($0.dropFirst(2))] ?? 0 : 0 }
            let weight = weights.min() ?? 1000
            lowest[coding] = min(lowest[coding] ?? weight, weight)
        }
        let gzip = lowest["gzip"] ?? lowest["*"] ?? 0
        let identity = lowest["identity"] ?? lowest["*"]
        return gzip > 0 && identity.map { gzip >= $0 } ?? true
    }

    /// The piece without spaces and tabs at its ends, ASCII letters lowercased (nothing else changed).
    private static func lowercasedTrimmed(_ piece: ArraySlice<UInt8>) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        let trimmed = piece.drop(while: blank).reversed().drop(while: blank).reversed()
        return String(decoding: trimmed.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Every spelling RFC 9110 §12.4.2 allows, in thousandths: `0`, `0.`, `0.5`, …, `1.000`.
    private static let qvalues: [String: Int] = {
        var table = ["0": 0, "1": 1000, "0.": 0, "1.": 1000]
        for thousandths in 0..<1000 {
            let digits = String(thousandths + 1000).dropFirst()
            for length in 1...3 where digits.dropFirst(length).allSatisfy({ $0 == "0" }) {
                table["0." + digits.prefix(length)] = thousandths
            }
        }
        for zeros in ["0", "00", "000"] { table["1." + zeros] = 1000 }
        return table
    }()
}
