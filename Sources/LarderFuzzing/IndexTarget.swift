import Foundation
import LarderDocuments
import LarderFormats

extension FuzzTarget {
    /// Where the fuzzed indexes claim to come from; relative URLs resolve against it.
    static let indexURL = URL(string: "http://127.0.0.1:8081/docs/index.json")!

    /// An index body in one format: what is accepted keeps SPEC §5's promises (valid names unique
    /// ignoring case, http(s) URLs with a host, sizes and digests in range), and written back as a
    /// JSON index it reads as the same index, so the accepted value is exactly what the body said.
    static func indexTarget(_ name: String, format: DocumentsFormat) -> FuzzTarget {
        FuzzTarget(name) { input throws(PropertyViolation) in
            guard let index = try? DocumentIndexParser.parse(input, format: format, indexURL: indexURL) else { return }
            try checkIndex(index)
        }
    }

    static func checkIndex(_ index: DocumentIndex) throws(PropertyViolation) {
        try expect(index.version == 1 && index.documents.count <= 100_000, "version \(index.version), \(index.documents.count) documents")
        var names: Set<String> = []
        for document in index.documents {
            try expect(DocumentName.isValid(document.name), "invalid name \(document.name.debugDescription)")
            try checkInertName(document.name)
            try expect(names.insert(DocumentName.caseFolded(document.name)).inserted, "\(document.name) listed twice")
            try expect(["http", "https"].contains(document.url.scheme ?? "") && !(document.url.host ?? "").isEmpty,
                       "\(document.name): url \(document.url.absoluteString.debugDescription)")
            try expect(document.size.map { $0 >= 0 && $0 <= 9_007_199_254_740_992 } ?? true, "\(document.name): size")
            try expect(document.sha256.map { $0.utf8.count == 64 && $0 == $0.lowercased() } ?? true, "\(document.name): sha256")
        }
        let json = jsonIndex(index)
        let again: DocumentIndex
        do {
            again = try DocumentIndexParser.parse(json, format: .json, indexURL: indexURL)
        } catch {
            throw PropertyViolation(message: "written back, the index is refused: \(error.message)\n\(String(decoding: json, as: UTF8.self))")
        }
        try expect(jsonIndex(again) == json, "written back, the index reads differently:\n\(String(decoding: json, as: UTF8.self))")
    }

    /// The JSON index format (SPEC §5) of an index, URLs absolute, instants to the millisecond.
    static func jsonIndex(_ index: DocumentIndex) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"version\":1")
        if let generatedAt = index.generatedAt {
            writer.raw(",")
            writer.key("generated_at")
            writer.string(RFC3339.string(generatedAt))
        }
        writer.raw(",\"documents\":[")
        for (position, document) in index.documents.enumerated() {
            writer.raw(position == 0 ? "{" : ",{")
            writer.key("name")
            writer.string(document.name)
            writer.raw(",")
            writer.key("url")
            writer.string(document.url.absoluteString)
            if let size = document.size { writer.raw(",\"size\":\(size)") }
            for (key, value) in [("sha256", document.sha256), ("content_type", document.contentType),
                                 ("created_at", document.createdAt.map { RFC3339.string($0) }),
                                 ("updated_at", document.updatedAt.map { RFC3339.string($0) })] {
                guard let value else { continue }
                writer.raw(",")
                writer.key(key)
                writer.string(value)
            }
            writer.raw("}")
        }
        writer.raw("]}")
        return writer.bytes
    }
}
