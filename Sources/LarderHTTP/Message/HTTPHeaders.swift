/// An ordered list of header fields with case-insensitive lookup by name.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)

    private var fields: [Field]
    #if DEBUG
    /// A lean request's declared names (`Router.add(_:_:reads:)`): reading any other traps, since the
    /// lean path never carries it and the handler would see it absent. Debug builds only: free in release.
    var declared: DeclaredHeaders?
    #endif

    public init() {
        fields = []
    }

    public init(_ fields: [Field]) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, if present.
    public subscript(name: String) -> String? {
        #if DEBUG
        declared?.check(name)
        #endif
        return fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of that name with one field.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        fields.append((name: name, value: value))
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names need, without allocating: over the two
    /// strings' contiguous bytes (every lookup of every request; iterating the UTF-8 views cost some
    /// 140 instructions per lookup of `If-None-Match`).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        let contiguous = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in zip(x, y).allSatisfy(Self.sameIgnoringASCIICase) }
        }
        return contiguous.flatMap { $0 } ?? zip(a, b).allSatisfy(Self.sameIgnoringASCIICase)
    }

    private static func sameIgnoringASCIICase(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
    }
}
