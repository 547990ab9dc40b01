import CompressNIO
public import LarderHTTP
import NIOCore
import Synchronization

/// The gzip encoding of a prepared body: compressed once, by the first request that asks for it,
/// and shared by every gzip answer after it until the body changes.
///
/// On first use rather than when the body is made, so start-up and refreshes never pay for
/// compression nobody asked for: the first gzip request of a 7 MiB listing waits tens of
/// milliseconds (requests for the same body meanwhile wait for that one compression), every later
/// one none.
public final class GzipVariant: Sendable {
    /// Bodies up to 1 KiB stay identity only: gzip would save a few hundred bytes at most, and each
    /// variant costs every cache on the way a `Vary`.
    public static let largestIdentityOnly = 1024

    /// The identity ETag with `-gzip` inside the quotes: strong and distinct, and the same for the
    /// same body on every Larder (zlib's output is a function of the input and the level).
    public let etag: String
    private let source: SharedBytes
    /// nil until first use; then the bytes, or nil again inside if zlib failed (identity is then served).
    private let compressed = Mutex<SharedBytes??>(nil)

    /// nil when `body` is 1 KiB or smaller.
    init?(of body: SharedBytes, identityETag: String) {
        guard body.count > Self.largestIdentityOnly else { return nil }
        source = body
        etag = Self.etag(forIdentity: identityETag)
    }

    /// The gzip encoding's ETag for a representation whose identity ETag is `identityETag`.
    public static func etag(forIdentity identityETag: String) -> String {
        String(identityETag.dropLast()) + "-gzip\""
    }

    /// The gzip bytes, compressed on the first call; nil when zlib failed.
    public var bytes: SharedBytes? {
        compressed.withLock { made in
            if let made { return made }
            let fresh = Self.compress(source)
            made = .some(fresh)
            return fresh
        }
    }

    /// zlib's default level (6): on a 7 MiB listing the best level (9) saved 0.7 % more in twice the time.
    private static func compress(_ body: SharedBytes) -> SharedBytes? {
        body.withUnsafeBytes { raw in
            var input = ByteBufferAllocator().buffer(capacity: raw.count)
            input.writeBytes(raw)
            guard let output = try? input.compress(with: .gzip()) else { return nil }
            return SharedBytes(output.readableBytesView)
        }
    }
}
