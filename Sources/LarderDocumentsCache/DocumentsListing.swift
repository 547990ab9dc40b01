import Foundation
import LarderStore

/// Renders `GET /documents`: the JSON index schema of SPEC §5, with `url` pointing at this Larder,
/// so another Larder can mirror it. Sizes and hashes come from the verified files where present.
enum DocumentsListing {
    private struct Body: Encodable {
        let version = 1
        let generatedAt: String
        let documents: [Entry]

        enum CodingKeys: String, CodingKey {
            case version, documents
            case generatedAt = "generated_at"
        }
    }

    private struct Entry: Encodable {
        let name: String
        let url: String
        let size: Int?
        let sha256: String?
        let contentType: String?
        let createdAt: String?
        let updatedAt: String?

        enum CodingKeys: String, CodingKey {
            case name, url, size, sha256
            case contentType = "content_type"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }
    }

    static func render(entries: [DocumentEntryRecord], files: [String: DocumentFileRecord], generatedAt: Date) -> [UInt8] {
        let documents = entries.map { entry in
            let file = files[entry.name]
            return Entry(
                name: entry.name, url: "/documents/" + entry.name, size: file?.size ?? entry.size,
                sha256: file?.sha256 ?? entry.sha256, contentType: entry.contentType,
                // The timestamps of the bytes actually served, once mirrored (they may be newer than the index's).
                createdAt: (file.map { $0.createdAt } ?? entry.createdAt).map(timestamp),
                updatedAt: (file.map { $0.updatedAt } ?? entry.updatedAt).map(timestamp))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Body(generatedAt: timestamp(generatedAt), documents: documents))) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// RFC 3339 in UTC, with milliseconds only when the instant has them.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        if millis.truncatingRemainder(dividingBy: 1000) != 0 {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }
}
