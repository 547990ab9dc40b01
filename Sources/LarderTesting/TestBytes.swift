import Glibc

/// Bytes that do not repeat in any short period and do not compress, the same for the same seed: an
/// off-by-one slice never compares equal, and a large body really is large on the wire.
public func pseudoRandomBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        var index = 0
        while index < count {
            // xorshift64: eight bytes per step keeps 50 MiB quick even in a debug build.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            var word = state
            for _ in 0..<min(8, count - index) {
                buffer[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
        initialized = count
    }
}

extension TestResponse {
    /// True when the body equals `expected` byte for byte (memcmp: fast for 50 MiB).
    public func bodyEquals(_ expected: some Collection<UInt8>) -> Bool {
        let expected = Array(expected)
        guard body.count == expected.count else { return false }
        return body.withUnsafeBytes { a in
            expected.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }
}
