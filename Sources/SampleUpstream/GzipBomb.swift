import LarderHTTP
import Synchronization

/// A gzip stream of zeros that inflates to hundreds of times its size, for testing decompression caps.
///
/// Built by hand, without zlib: one fixed-Huffman DEFLATE block holding a literal zero and then
/// back-references of length 258 at distance 1 (13 bits each for 258 bytes), so 300 MiB of zeros
/// take about 2 MB. The CRC-32 of the zeros is computed in closed form, not byte by byte.
enum GzipBomb {
    private static let cache = Mutex<[Int: SharedBytes]>([:])

    /// The gzip bytes for `mebibytes` MiB of zeros, built once per size and then shared.
    static func bytes(mebibytes: Int) -> SharedBytes {
        if let cached = cache.withLock({ $0[mebibytes] }) { return cached }
        let built = SharedBytes(gzip(zeroCount: mebibytes << 20))
        return cache.withLock { cache in
            if let raced = cache[mebibytes] { return raced }
            cache[mebibytes] = built
            return built
        }
    }

    /// A complete gzip member (RFC 1952) whose content is `zeroCount` zero bytes.
    static func gzip(zeroCount: Int) -> [UInt8] {
        // ID1 ID2, CM = deflate, no flags, no modification time, no extra flags, OS unknown.
        var bytes: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        bytes += deflateZeros(zeroCount)
        bytes += littleEndian(crc32OfZeros(zeroCount))
        bytes += littleEndian(UInt32(truncatingIfNeeded: zeroCount))
        return bytes
    }

    /// A raw DEFLATE stream (RFC 1951) of `count` zeros in one final fixed-Huffman block.
    static func deflateZeros(_ count: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.reserve(bytes: count / 258 * 13 / 8 + 64)
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        var remaining = count
        if remaining > 0 {
            writer.writeCode(0x30, length: 8)  // literal 0
            remaining -= 1
        }
        while remaining >= 258 {
            writer.writeCode(0xc5, length: 8)  // length symbol 285 = 258, no extra bits
            writer.writeCode(0, length: 5)  // distance symbol 0 = 1, no extra bits
            remaining -= 258
        }
        for _ in 0..<remaining {
            writer.writeCode(0x30, length: 8)
        }
        writer.writeCode(0, length: 7)  // end of block, symbol 256
        return writer.finish()
    }

    /// CRC-32 (the gzip one) of `count` zero bytes.
    ///
    /// A zero bit moves the CRC register by a fixed linear map over GF(2); the map for 8·count bits
    /// is a matrix power, found by repeated squaring in about 40 steps instead of `count` byte steps.
    static func crc32OfZeros(_ count: Int) -> UInt32 {
        // Column i is where the one-bit step sends register bit i.
        var step = (0..<32).map { bit in bit == 0 ? UInt32(0xedb8_8320) : UInt32(1) << (bit - 1) }
        var register: UInt32 = 0xffff_ffff
        var bitsLeft = UInt64(count) * 8
        while bitsLeft > 0 {
            if bitsLeft & 1 == 1 { register = apply(step, to: register) }
            step = step.map { apply(step, to: $0) }
            bitsLeft >>= 1
        }
        return ~register
    }

    private static func apply(_ matrix: [UInt32], to vector: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<32 where vector & (1 << bit) != 0 {
            result ^= matrix[bit]
        }
        return result
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

/// Packs DEFLATE's bit stream: fields least significant bit first, Huffman codes most significant bit first.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingCount = 0

    mutating func reserve(bytes count: Int) {
        bytes.reserveCapacity(count)
    }

    mutating func write(_ value: UInt32, bits: Int) {
        pending |= UInt64(value) << pendingCount
        pendingCount += bits
        while pendingCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingCount -= 8
        }
    }

    mutating func writeCode(_ code: UInt32, length: Int) {
        var reversed: UInt32 = 0
        for bit in 0..<length where code & (1 << bit) != 0 {
            reversed |= 1 << (length - 1 - bit)
        }
        write(reversed, bits: length)
    }

    mutating func finish() -> [UInt8] {
        if pendingCount > 0 { bytes.append(UInt8(truncatingIfNeeded: pending)) }
        pending = 0
        pendingCount = 0
        return bytes
    }
}
