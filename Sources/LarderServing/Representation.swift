import Crypto
public import Foundation
import LarderFormats
public import LarderHTTP

/// A body prepared once per change, with the validators every answer carries: a strong `ETag`
/// from the bytes and a `Last-Modified` from when the content last changed; over 1 KiB, also its gzip encoding.
public final class Representation: Sendable {
    public let body: SharedBytes
    public let contentType: String
    public let etag: String
    /// Seconds since 1970.
    public let lastModified: Int
    public let lastModifiedText: String
    /// The gzip encoding, for a body over 1 KiB (compressed on its first request); nil for smaller ones.
    public let gzip: GzipVariant?

    /// `version`, when given, is part of the `ETag` too: an answer whose bytes can stay the same while what
    /// they describe changed (a catalogue whose rows grew) changes its validator with it.
    public init(bytes: [UInt8], contentType: String = "application/json", lastModified: Date, version: String? = nil) {
        body = SharedBytes(bytes)
        self.contentType = contentType
        etag = version.map { Self.etag(for: bytes + [3] + Array($0.utf8)) } ?? Self.etag(for: bytes)
        gzip = GzipVariant(of: body, identityETag: etag)
        self.lastModified = WholeSeconds.since1970(lastModified)
        lastModifiedText = HTTPDate.format(secondsSince1970: self.lastModified)
    }

    /// `"<first 96 bits of SHA-256, hex>"`: strong, and the same for the same bytes on every Larder.
    public static func etag(for bytes: some Sequence<UInt8>) -> String {
        let digest = SHA256.hash(data: Array(bytes))
        return "\"" + Hex.string(digest.prefix(12)) + "\""
    }
}
