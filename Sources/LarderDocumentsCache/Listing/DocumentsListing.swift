import Foundation
import LarderFormats
import LarderStore

/// Renders `GET /documents`: the JSON index schema of SPEC §5, with `url` pointing at this Larder,
/// so another Larder can mirror it. Sizes and hashes come from the verified files where present.
/// Keys are sorted; absent fields are left out. Written an entry at a time, so the listing of a
/// 100,000-entry index is never in memory whole.
struct DocumentsListing {
    private var json = JSONWriter(capacity: 80 * 1024)
    private var count = 0

    init() {
        json.raw("{")
        json.key("documents")
        json.raw("[")
    }

    /// Bytes rendered and not yet taken: the caller writes them out when this grows past a chunk.
    var pending: Int { json.bytes.count }

    /// Hands over the bytes rendered so far.
    mutating func take() -> [UInt8] {
        defer { json = JSONWriter(capacity: 80 * 1024) }
        return json.bytes
    }

    mutating func append(_ document: ListedDocument) {
        let entry = document.entry
        let file = document.file
        if count > 0 { json.raw(",") }
        count += 1
        // The timestamps of the bytes actually served, once mirrored (they may be newer than the index's).
        let createdAt = file.map { $0.createdAt } ?? entry.createdAt
        let updatedAt = file.map { $0.updatedAt } ?? entry.updatedAt
        json.raw("{")
        var first = true
        func member(_ name: String, _ write: (inout JSONWriter) -> Void) {
            if !first { json.raw(",") }
            first = false
            json.key(name)
            write(&json)
        }
        if let contentType = entry.contentType { member("content_type") { $0.string(contentType) } }
        if let createdAt { member("created_at") { $0.string(Self.timestamp(createdAt)) } }
        member("name") { $0.string(entry.name) }
        if let sha256 = file?.sha256 ?? entry.sha256 { member("sha256") { $0.string(sha256) } }
        if let size = file?.size ?? entry.size { member("size") { $0.int(size) } }
        if let updatedAt { member("updated_at") { $0.string(Self.timestamp(updatedAt)) } }
        member("url") { $0.string("/documents/" + entry.name) }
        json.raw("}")
    }

    /// Closes the document with its `generated_at`.
    mutating func finish(generatedAt: Date) {
        json.raw("],")
        json.key("generated_at")
        json.string(Self.timestamp(generatedAt))
        json.raw(",")
        json.key("version")
        json.raw("1}\n")
    }

    /// RFC 3339 in UTC, with milliseconds only when the instant has them.
    static func timestamp(_ date: Date) -> String {
        RFC3339.string(date)
    }
}
