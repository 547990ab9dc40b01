import LarderStore

/// The listed documents in index order, read from the store a page at a time.
struct ListedPages {
    /// Entries read at once: enough to make a page's query cost nothing beside its rows.
    static let pageSize = 1000

    let store: Store
    private var page: [ListedDocument] = []
    private var index = 0
    private var position = -1
    private var ended = false

    init(store: Store) {
        self.store = store
    }

    mutating func next() throws(StoreError) -> ListedDocument? {
        if index == page.count {
            guard !ended else { return nil }
            load(try store.listedDocuments(after: position, limit: Self.pageSize))
        }
        return take()
    }

    /// `next()` for a sync on Swift's cooperative pool: each page is read through the store's async API.
    mutating func next() async throws(StoreError) -> ListedDocument? {
        if index == page.count {
            guard !ended else { return nil }
            load(try await store.listedDocuments(after: position, limit: Self.pageSize))
        }
        return take()
    }

    private mutating func load(_ read: [ListedDocument]) {
        page = read
        index = 0
        if let last = read.last { position = last.entry.position } else { ended = true }
    }

    private mutating func take() -> ListedDocument? {
        guard index < page.count else { return nil }
        defer { index += 1 }
        return page[index]
    }
}
