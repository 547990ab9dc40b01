import Foundation
import LarderFormats
import LarderStore

/// Renders `GET /documents`: the JSON index schema of SPEC §5, with `url` pointing at this Larder,
/// so another Larder can mirror it. Sizes and hashes come from the verified files where present.
/// Keys are sorted; absent fields are left out.
enum DocumentsListing {
    static func render(entries: [DocumentEntryRecord], files: [String: DocumentFileRecord], generatedAt: Date) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + entries.count * 300)
        json.raw("{")
        json.key("documents")
        json.raw("[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { json.raw(",") }
            let file = files[entry.name]
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
            if let createdAt { member("created_at") { $0.string(timestamp(createdAt)) } }
            member("name") { $0.string(entry.name) }
            if let sha256 = file?.sha256 ?? entry.sha256 { member("sha256") { $0.string(sha256) } }
            if let size = file?.size ?? entry.size { member("size") { $0.int(size) } }
            if let updatedAt { member("updated_at") { $0.string(timestamp(updatedAt)) } }
            member("url") { $0.string("/documents/" + entry.name) }
            json.raw("}")
        }
        json.raw("],")
        json.key("generated_at")
        json.string(timestamp(generatedAt))
        json.raw(",")
        json.key("version")
        json.raw("1}\n")
        return json.bytes
    }

    /// RFC 3339 in UTC, with milliseconds only when the instant has them.
    static func timestamp(_ date: Date) -> String {
        RFC3339.string(date)
    }
}
