import CompressNIO
import Glibc
import LarderHTTP
import NIOCore

/// Compresses a file into another, a chunk at a time, so a large prepared body (the documents
/// listing of 100,000 entries is 23 MB) gets its gzip encoding without ever being in memory whole.
public enum GzipFile {
    /// A failure to read, write or compress, with the system's or zlib's reason.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static let chunk = 1 << 20

    /// Writes the gzip encoding (zlib's default level, like `GzipVariant`) of the file open at
    /// `input` to `output`, both descriptors owned by the caller; returns the bytes written.
    public static func compress(from input: Int32, to output: Int32) throws(Failure) -> Int {
        let compressor = CompressionAlgorithm.gzip().compressor
        do {
            try compressor.startStream()
        } catch {
            throw Failure(description: "cannot start gzip: \(error)")
        }
        defer { try? compressor.finishStream() }
        var written = 0
        var out = ByteBufferAllocator().buffer(capacity: chunk / 4)
        func drain() throws(Failure) {
            if let code = out.withUnsafeReadableBytes({ WriteAll.write($0, to: output) }) {
                throw Failure(description: "cannot write: \(WriteAll.reason(code))")
            }
            written += out.readableBytes
            out.clear()
        }
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "cannot read: \(String(cString: strerror(errno)))") }
            var input = ByteBuffer(bytes: buffer.prefix(count))
            let finish = count == 0
            while true {
                if out.writableBytes < 64 * 1024 { try drain() }
                do {
                    try input.compressStream(to: &out, with: compressor, flush: finish ? .finish : .no)
                    if input.readableBytes == 0 { break }
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    try drain()
                } catch {
                    throw Failure(description: "gzip failed: \(error)")
                }
            }
            if finish { break }
        }
        try drain()
        return written
    }
}
