import LarderServing

extension FuzzTarget {
    /// A `Range` header (after the first line, which gives the representation's size in decimal):
    /// whatever it says, a 206 never names a byte outside the representation, and never zero bytes.
    static let byteRange = FuzzTarget("byte-range") { input throws(PropertyViolation) in
        let lines = parts(input, 2)
        // Any size the first line spells, else one from its bytes, so small and huge sizes both come up.
        let size = UInt64(lines[0]) ?? lines[0].utf8.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) } % 100_000
        switch ByteRange(lines[1], size: size) {
        case .satisfiable(let offset, let length):
            try expect(length > 0, "a 206 of zero bytes for \(lines[1].debugDescription)")
            try expect(offset < size && length <= size - offset,
                       "bytes \(offset)+\(length) of \(size) for \(lines[1].debugDescription)")
        case .unsatisfiable:
            try expect(lines[1].contains("="), "416 for a header that names no unit: \(lines[1].debugDescription)")
        case .none:
            break
        }
        try expect(ByteRange(nil, size: size) == .none, "a range without a header")
    }
}
