public import Foundation
import LarderStore

/// One listed document as the status page shows it: what `/documents` says of it, and whether its
/// bytes are mirrored or why its latest download failed.
public struct DocumentStatus: Sendable, Equatable {
    /// Where the document's bytes stand.
    public enum State: Sendable, Equatable {
        /// Verified bytes are on disk and served.
        case mirrored
        /// The latest download failed; `servingOldCopy` when earlier verified bytes are still served.
        case failed(message: String, servingOldCopy: Bool)
        /// Listed, not downloaded yet (fetched on first request).
        case pending
    }

    public let name: String
    /// The size and timestamp of the bytes served once mirrored, else the index's (as `/documents` lists them).
    public let size: Int?
    public let updatedAt: Date?
    public let contentType: String?
    public let state: State
}

extension DocumentsCache {
    /// Every listed document, in index order.
    public var documentStatuses: [DocumentStatus] {
        let (entries, files, failures) = state.reading
        return entries.map { entry in
            let file = files[entry.name]
            let state: DocumentStatus.State = failures[entry.name].map { .failed(message: $0, servingOldCopy: file != nil) }
                ?? (file == nil ? .pending : .mirrored)
            return DocumentStatus(
                name: entry.name, size: file?.size ?? entry.size, updatedAt: file.map { $0.updatedAt } ?? entry.updatedAt,
                contentType: entry.contentType, state: state)
        }
    }

    /// Changes with every change of the index, a mirrored file or a failure: equal revisions, equal statuses.
    public var revision: Int { state.revision }
}
