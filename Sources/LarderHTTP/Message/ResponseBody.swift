import Glibc

/// What a response sends after its headers.
public enum ResponseBody: Sendable {
    case empty
    /// Bytes prepared once and shared, sent without a copy.
    case bytes(SharedBytes)
    /// `length` of shared bytes from `offset` (a byte range of a mapped file), sent without a copy.
    case slice(SharedBytes, offset: Int, length: Int)
    /// A region of an open file, sent with sendfile; the response owns and closes the descriptor.
    case file(FileRegion)
    /// Bytes produced on demand by a reader, for bodies that are neither in memory nor a plain file.
    case stream(StreamBody)

    /// Bodies sent by `sendfile` with a length in this range go corked. Measured by the server's CPU
    /// (docs/performance.md), the cork halves the cost of a 346 KB answer by `sendfile` (a one-year CSV
    /// from an answer file, or a document), does nothing for one `sendmsg` from the heap, and doubles
    /// a 1 MiB document's, which takes several `sendfile` calls.
    static let corkedLengths: ClosedRange<UInt64> = 64 * 1024...512 * 1024

    /// True when the server sends it corked (`HTTPServer.queue`): it goes by `sendfile` (a file, or
    /// shared bytes in an answer file) and its length is in `corkedLengths`.
    var isCorked: Bool {
        let length: UInt64? = switch self {
        case .file(let region): region.length
        case .bytes(let bytes): bytes.sendsFromAnswerFile(length: bytes.count) ? UInt64(bytes.count) : nil
        case .slice(let bytes, _, let length): bytes.sendsFromAnswerFile(length: length) ? UInt64(length) : nil
        case .empty, .stream: nil
        }
        return length.map(Self.corkedLengths.contains) ?? false
    }

    /// A body of the UTF-8 bytes of a string (allocated per call: for answers that are not hot).
    public static func string(_ text: String) -> ResponseBody {
        .bytes(SharedBytes(text))
    }
}

/// An open file and the byte range of it to send.
public struct FileRegion: Sendable {
    /// Closed once: by libmicrohttpd after sending, or when the last copy of the response is dropped unsent.
    public let file: OwnedDescriptor
    public let offset: UInt64
    public let length: UInt64

    /// Takes ownership of `descriptor`: closed when the response is done or dropped.
    public init(descriptor: Int32, offset: UInt64 = 0, length: UInt64) {
        self.init(file: OwnedDescriptor(descriptor), offset: offset, length: length)
    }

    public init(file: OwnedDescriptor, offset: UInt64 = 0, length: UInt64) {
        self.file = file
        self.offset = offset
        self.length = length
    }
}

/// A body read piece by piece on a server thread, from the start, as the socket drains.
public final class StreamBody: Sendable {
    /// One step of a stream.
    public enum Step: Sendable {
        /// That many bytes were written into the buffer.
        case wrote(Int)
        /// The body is complete.
        case end
        /// Stop and cut the connection: the client sees a short body.
        case abort
    }

    /// The declared length (`Content-Length`), or nil for a chunked body.
    public let length: UInt64?
    let read: @Sendable (_ offset: UInt64, _ buffer: UnsafeMutableRawBufferPointer) -> Step

    public init(
        length: UInt64?,
        read: @escaping @Sendable (_ offset: UInt64, _ buffer: UnsafeMutableRawBufferPointer) -> Step
    ) {
        self.length = length
        self.read = read
    }
}
