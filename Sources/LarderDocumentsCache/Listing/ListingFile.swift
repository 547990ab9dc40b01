import Foundation
import Glibc
import LarderFormats
import LarderHTTP
import LarderServing
import LarderStore

/// One rendering of `/documents` on disk: the JSON and its gzip, written once per change and sent
/// like a large document, so neither the listing of a large index (23 MB at 100,000 entries) nor its
/// encoding sits in the heap.
struct ListingFile: Sendable {
    let directory: MirrorDirectory
    let identity: String
    /// nil when compressing failed (identity is then served to everyone).
    let gzip: String?
    let identityRepresentation: FileRepresentation
    let gzipRepresentation: FileRepresentation
    /// The files mapped once, when no larger than `mappedLimit`: sent from the page cache in one go,
    /// where libmicrohttpd sends a descriptor 128 KiB per turn of its loop (a third of the rate for
    /// a 2.4 MiB listing). The pages count as resident only once sent, so a larger listing (23 MiB
    /// at 100,000 entries) goes by sendfile, and memory stays flat whatever the index.
    let identityBytes: SharedBytes?
    let gzipBytes: SharedBytes?

    static let mappedLimit = 8 * 1024 * 1024

    /// Chunks of rendered JSON are written out at this size.
    private static let chunk = 64 * 1024

    /// Writes the listing of the store's current index, named after `generation`. The index's
    /// `generated_at` is listed as sent, but dates `Last-Modified` no later than the index was stored,
    /// nor than `now` (stored instants after it are kept when the clock went back: SPEC §4.11).
    static func render(
        store: Store, indexUpdatedAt: Date?, indexStoredAt: Date?, notAfter now: Date, into directory: MirrorDirectory,
        generation: Int
    ) throws -> ListingFile {
        let newestFile = try store.newestDocumentStoredAt().map { Date(timeIntervalSince1970: $0) }
        let indexModified = indexUpdatedAt.map { updated in indexStoredAt.map { min(updated, $0) } ?? updated }
        let lastModified = min([indexModified, newestFile].compactMap { $0 }.max() ?? Date(timeIntervalSince1970: 0), now)
        let stem = "listing-\(generation)-" + UUID().uuidString.prefix(8)
        let identity = stem + ".json"
        let descriptor = try create(identity, in: directory)
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
            directory.remove(identity)
            throw error
        }
        let gzip = compressed(identity, in: directory, as: stem + ".json.gz", size: written.count)
        let etag = "\"" + written.sha256.prefix(24) + "\""
        let seconds = WholeSeconds.since1970(lastModified)
        return ListingFile(
            directory: directory, identity: identity, gzip: gzip,
            identityRepresentation: FileRepresentation(
                contentType: "application/json", etag: etag, lastModified: seconds, variesByEncoding: gzip != nil),
            gzipRepresentation: FileRepresentation(
                contentType: "application/json", etag: GzipVariant.etag(forIdentity: etag), lastModified: seconds,
                encoding: "gzip", variesByEncoding: true),
            identityBytes: mapped(identity, in: directory), gzipBytes: gzip.flatMap { mapped($0, in: directory) })
    }

    /// The answer to `request`: gzip when preferred (and no `Range`), else identity; nil when the
    /// files are gone (a newer rendering replaced them this instant).
    func response(for request: Request, state: CacheState) -> Response? {
        if let gzip, request.prefersGzip, request.headers["Range"] == nil,
           let source = source(gzip, gzipBytes) {
            return FileAnswer.response(for: request, source: source, representation: gzipRepresentation, state: state)
        }
        guard let source = source(identity, identityBytes) else { return nil }
        return FileAnswer.response(for: request, source: source, representation: identityRepresentation, state: state)
    }

    private func source(_ name: String, _ bytes: SharedBytes?) -> FileSource? {
        if let bytes { return .mapped(bytes) }
        return directory.openForReading(name).map { .descriptor($0.descriptor, size: $0.size) }
    }

    /// Deletes both files (answers in flight keep their open descriptors and mappings).
    func remove() {
        directory.remove(identity)
        if let gzip { directory.remove(gzip) }
    }

    /// The file mapped, when it is no larger than `mappedLimit`.
    private static func mapped(_ name: String, in directory: MirrorDirectory) -> SharedBytes? {
        guard let (descriptor, size) = directory.openForReading(name) else { return nil }
        defer { close(descriptor) }
        guard size > 0, size <= mappedLimit else { return nil }
        return SharedBytes(mapping: descriptor, count: Int(size))
    }

    private static func create(_ name: String, in directory: MirrorDirectory) throws -> Int32 {
        let descriptor = open(directory.path + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw MirrorError("cannot write the listing \(name): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// The gzip file's name, or nil for a listing of 1 KiB or less (like every prepared answer) or when compressing failed.
    private static func compressed(_ identity: String, in directory: MirrorDirectory, as name: String, size: Int) -> String? {
        guard size > GzipVariant.largestIdentityOnly, let (input, _) = directory.openForReading(identity) else { return nil }
        defer { close(input) }
        guard let output = try? create(name, in: directory) else { return nil }
        defer { close(output) }
        do {
            _ = try GzipFile.compress(from: input, to: output)
            return name
        } catch {
            directory.remove(name)
            return nil
        }
    }
}
