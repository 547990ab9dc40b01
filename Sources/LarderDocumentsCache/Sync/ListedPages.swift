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
            page = try store.listedDocuments(after: position, limit: Self.pageSize)
            index = 0
            guard let last = page.last else {
                ended = true
                return nil
            }
            position = last.entry.position
        }
        defer { index += 1 }
        return page[index]
    }
}
