/// One HTTP request as handlers see it: decoded, complete, safe to carry across `await`.
public struct Request: Sendable {
    public let method: HTTPMethod
    /// The path as it arrived, still percent-encoded (without the query).
    public let rawPath: String
    /// The path split at `/`, each segment percent-decoded on its own (so `%2F` stays inside one segment).
    public let segments: [String]
    public let query: QueryItems
    /// On a lean route, only those it declares (`Router.add(_:_:reads:)`).
    public internal(set) var headers: HTTPHeaders
    /// The body of a POST or PUT, at most the server's body limit.
    public let body: [UInt8]
    /// Values captured by the route pattern (`:name` and `*name` segments).
    public package(set) var parameters: [String: String] = [:]
    /// Whether `Accept-Encoding` makes gzip the answer (`AcceptEncoding`), decided where the request
    /// is read: a lean route reads the field's bytes in place and keeps no text of it, so the hot
    /// path pays no allocation for a browser's `gzip, deflate, br, zstd`.
    public package(set) var prefersGzip: Bool

    public init(
        method: HTTPMethod,
        rawPath: String,
        segments: [String],
        query: QueryItems = QueryItems([]),
        headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.rawPath = rawPath
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
        prefersGzip = AcceptEncoding.prefersGzip(headers)
    }
}

/// The decoded `name=value` pairs of a query string, in order, duplicates kept.
public struct QueryItems: Sendable, Sequence {
    public typealias Item = (name: String, value: String)

    private let items: [Item]

    public init(_ items: [Item]) {
        self.items = items
    }

    /// The first value of that name.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    public var names: [String] { items.map(\.name) }
    public var isEmpty: Bool { items.isEmpty }

    public func makeIterator() -> IndexingIterator<[Item]> {
        items.makeIterator()
    }
}
