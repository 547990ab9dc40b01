public import Foundation
public import LarderStore

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

/// The documents part of the status page: the counts, and the rows it has room for.
public struct DocumentStatusTable: Sendable, Equatable {
    /// Every failed document first (up to the limit), then the others in index order.
    public let rows: [DocumentStatus]
    public let listed: Int
    public let mirrored: Int
    public let failed: Int
}

extension DocumentsCache {
    /// At most `limit` listed documents, every failed one first, each group in index order, and
    /// the counts of all; read from the store a page at a time.
    public func documentStatuses(limit: Int) throws(StoreError) -> DocumentStatusTable {
        let failures = state.failureMessages
        var failedRows: [(position: Int, status: DocumentStatus)] = []
        for name in failures.keys.sorted() {
            guard failedRows.count < limit else { break }
            let (entry, file) = try state.lookup(name)
            guard let entry else { continue }
            failedRows.append((entry.position, Self.status(entry, file, failures)))
        }
        var rows = failedRows.sorted { $0.position < $1.position }.map(\.status)
        var pages = ListedPages(store: store)
        while rows.count < limit, let document = try pages.next() {
            if failures[document.entry.name] == nil { rows.append(Self.status(document.entry, document.file, failures)) }
        }
        let counts = try state.counts()
        let listedFailures = failures.count <= limit ? failedRows.count : failures.count
        return DocumentStatusTable(rows: rows, listed: counts.listed, mirrored: counts.mirrored, failed: listedFailures)
    }

    private static func status(
        _ entry: DocumentEntryRecord, _ file: DocumentFileRecord?, _ failures: [String: String]
    ) -> DocumentStatus {
        let state: DocumentStatus.State = failures[entry.name].map { .failed(message: $0, servingOldCopy: file != nil) }
            ?? (file == nil ? .pending : .mirrored)
        return DocumentStatus(
            name: entry.name, size: file?.size ?? entry.size, updatedAt: file.map { $0.updatedAt } ?? entry.updatedAt,
            contentType: entry.contentType, state: state)
    }

    /// Changes with every change of the index, a mirrored file or a failure: equal revisions, equal statuses.
    public var revision: Int { state.revision }
}
