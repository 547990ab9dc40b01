import CompressNIO
import NIOCore

/// `bytes` inflated from the gzip format (RFC 1952), as a client would; nil when they are not gzip.
public func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
    // The magic number first: zlib's gzip mode would also take a zlib stream.
    guard bytes.starts(with: [0x1F, 0x8B]) else { return nil }
    var buffer = ByteBuffer(bytes: bytes)
    guard let inflated = try? buffer.decompress(with: .gzip()) else { return nil }
    return Array(inflated.readableBytesView)
}
