import Foundation
import Glibc
import LarderHTTP
import LarderServing
import LarderStore

/// One rendering of `/documents` on disk: the JSON and its gzip, written once per change and sent
/// with sendfile, so neither the listing of a large index (23 MB at 100,000 entries) nor its
/// encoding sits in memory.
struct ListingFile: Sendable {
    let directory: String
    let identity: String
    /// nil when compressing failed (identity is then served to everyone).
    let gzip: String?
    let etag: String
    let lastModified: Int
    /// The files mapped once, when no larger than `mappedLimit`: sent from the page cache in one go,
    /// where libmicrohttpd sends a descriptor 128 KiB per turn of its loop (a third of the rate for
    /// a 2.4 MiB listing). The pages count as resident only once sent, so a larger listing (23 MiB
    /// at 100,000 entries) goes by sendfile, and memory stays flat whatever the index.
    let identityBytes: SharedBytes?
    let gzipBytes: SharedBytes?

    static let mappedLimit = 8 * 1024 * 1024

    /// Chunks of rendered JSON are written out at this size.
    private static let chunk = 64 * 1024

    /// Writes the listing of the store's current index, named after `generation`.
    static func render(store: Store, indexUpdatedAt: Date?, into directory: String, generation: Int) throws -> ListingFile {
        let newestFile = try store.newestDocumentStoredAt().map { Date(timeIntervalSince1970: $0) }
        let lastModified = [indexUpdatedAt, newestFile].compactMap { $0 }.max() ?? Date(timeIntervalSince1970: 0)
        let stem = "listing-\(generation)-" + UUID().uuidString.prefix(8)
        let identity = stem + ".json"
        let descriptor = try create(directory + "/" + identity)
        var written: (count: Int, sha256: String)
        do {
            defer { close(descriptor) }
            let sink = HashingFileSink(descriptor: descriptor)
            var listing = DocumentsListing()
            try store.forEachListedDocument { document in
                listing.append(document)
                if listing.pending >= chunk { try sink.write(listing.take()) }
            }
            listing.finish(generatedAt: indexUpdatedAt ?? lastModified)
            try sink.write(listing.take())
            written = sink.finish()
        } catch {
            unlink(directory + "/" + identity)
            throw error
        }
        let gzip = compressed(identity, in: directory, as: stem + ".json.gz", size: written.count)
        return ListingFile(
            directory: directory, identity: identity, gzip: gzip,
            etag: "\"" + written.sha256.prefix(24) + "\"",
            lastModified: Int(lastModified.timeIntervalSince1970.rounded(.down)),
            identityBytes: mapped(directory + "/" + identity), gzipBytes: gzip.flatMap { mapped(directory + "/" + $0) })
    }

    /// The answer to `request`: gzip when preferred (and no `Range`), else identity; nil when the
    /// files are gone (a newer rendering replaced them this instant).
    func response(for request: Request, state: CacheState) -> Response? {
        let variant = gzip != nil
        if let gzip, request.prefersGzip, request.headers["Range"] == nil,
           let source = source(gzip, gzipBytes) {
            let representation = FileRepresentation(
                contentType: "application/json", etag: String(etag.dropLast()) + "-gzip\"", lastModified: lastModified,
                encoding: "gzip", variesByEncoding: true)
            return FileAnswer.response(for: request, source: source, representation: representation, state: state)
        }
        guard let source = source(identity, identityBytes) else { return nil }
        let representation = FileRepresentation(
            contentType: "application/json", etag: etag, lastModified: lastModified, variesByEncoding: variant)
        return FileAnswer.response(for: request, source: source, representation: representation, state: state)
    }

    private func source(_ name: String, _ bytes: SharedBytes?) -> FileSource? {
        if let bytes { return .mapped(bytes) }
        return open(name).map { .descriptor($0.0, size: $0.1) }
    }

    /// The file at `path` mapped, when it is no larger than `mappedLimit`.
    private static func mapped(_ path: String) -> SharedBytes? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0, info.st_size <= mappedLimit else { return nil }
        return SharedBytes(mapping: descriptor, count: Int(info.st_size))
    }

    /// Deletes both files (answers in flight keep their open descriptors).
    func remove() {
        unlink(directory + "/" + identity)
        if let gzip { unlink(directory + "/" + gzip) }
    }

    private func open(_ name: String) -> (Int32, UInt64)? {
        let descriptor = Glibc.open(directory + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            return nil
        }
        return (descriptor, UInt64(info.st_size))
    }

    private static func create(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw MirrorError("cannot write the listing \(path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// The gzip file's name, or nil for a listing of 1 KiB or less (like every prepared answer) or when compressing failed.
    private static func compressed(_ identity: String, in directory: String, as name: String, size: Int) -> String? {
        guard size > GzipVariant.largestIdentityOnly else { return nil }
        let input = Glibc.open(directory + "/" + identity, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        guard let output = try? create(directory + "/" + name) else { return nil }
        defer { close(output) }
        do {
            _ = try GzipFile.compress(from: input, to: output)
            return name
        } catch {
            unlink(directory + "/" + name)
            return nil
        }
    }
}
