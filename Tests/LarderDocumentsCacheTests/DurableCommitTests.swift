import Foundation
import LarderApp
@testable import LarderDocumentsCache
import LarderStore
import LarderTesting
import Synchronization
import Testing

/// What the commit hook saw of one batch's files, just before the batch's transaction.
private struct SeenFile: Sendable {
    let fileName: String
    /// Under its final name in the mirror's directory.
    let inPlace: Bool
    /// Every page on the disk (`cachestat`); nil where the kernel cannot say.
    let clean: Bool?
    /// The store did not list this file yet.
    let unlisted: Bool
}

/// Looks at a batch's files once they are synced, before their transaction, with what the test sets.
private final class BeforeTransaction: CommitObserver {
    let look = Mutex<(@Sendable ([String]) -> Void)?>(nil)

    func filesSynced(_ fileNames: [String]) { look.withLock { $0 }?(fileNames) }
}

@Suite("A sync's files are durable before the index names them")
struct DurableCommitTests {
    static let first = [TestDocument("first.txt", "the first document\n")]
    static let added = (0..<40).map { TestDocument("added-\($0).txt", String(repeating: "document \($0) ", count: 200)) }

    @Test func everyCommittedFileIsOnDiskBeforeItsTransaction() async throws {
        let observer = BeforeTransaction()
        try await withDocuments(Self.first, commitObserver: observer) { larder, upstream in
            #expect(try await larder.waitForSync())
            let documents = try #require(larder.application?.documents)
            let commits = documents.downloads.commits
            let seen = Mutex<[SeenFile]>([])
            observer.look.withLock {
                $0 = { fileNames in
                    let files = fileNames.map { fileName in
                        let path = commits.mirror.path + "/" + fileName
                        let name = String(fileName.prefix { $0 != "~" })
                        let listed = (try? commits.state.lookup(name).file?.fileName) ?? nil
                        return SeenFile(
                            fileName: fileName, inPlace: access(path, F_OK) == 0, clean: PageCacheState.of(path)?.isClean,
                            unlisted: listed != fileName)
                    }
                    seen.withLock { $0 += files }
                }
            }
            try await upstream.publish(Self.first + Self.added)
            let refresh = try await larder.post("/documents/refresh")
            #expect(refresh.status == 200, "\(refresh.text)")
            #expect(refresh.json?["added"] as? Int == Self.added.count)

            let files = seen.withLock { $0 }
            // Every added document went through a commit, and each file was whole on the disk first.
            let expected = Set(Self.added.map { MirrorDirectory.fileName(for: $0.name, sha256: $0.sha256) })
            #expect(Set(files.map(\.fileName)) == expected)
            for file in files {
                #expect(file.inPlace, "\(file.fileName) renamed into place before the transaction")
                #expect(file.unlisted, "\(file.fileName) not in the store before its transaction")
                #expect(file.clean != false, "\(file.fileName) has pages not yet on the disk at its transaction")
            }
            // And now each is served, from the file the store names.
            for document in Self.added.prefix(3) {
                let answer = try await larder.get("/documents/" + document.name)
                #expect(answer.status == 200)
                #expect(answer.body == document.content)
            }
        }
    }

    @Test func othersUnwrittenBytesPastTheLimitMakeEachFileSyncAlone() {
        let own = 1 << 20
        #expect(FileSystemSync.way(ownBytes: own, unwritten: own + 2 << 20) == .wholeFileSystem)
        #expect(FileSystemSync.way(ownBytes: own, unwritten: own + FileSystemSync.othersLimit) == .wholeFileSystem)
        #expect(FileSystemSync.way(ownBytes: own, unwritten: own + FileSystemSync.othersLimit + 1) == .eachFile)
        #expect(FileSystemSync.way(ownBytes: own, unwritten: 200 << 20) == .eachFile)
        #expect(FileSystemSync.way(ownBytes: own, unwritten: nil) == .eachFile, "unknown: never anyone else's bytes")
        let meminfo = "MemTotal:       24684092 kB\nDirty:              2048 kB\nWriteback:           512 kB\n"
        #expect(UnwrittenBytes.parse(meminfo) == 2560 * 1024)
        #expect(UnwrittenBytes.parse("MemTotal: 1 kB\n") == nil)
        #expect(UnwrittenBytes.now() != nil, "this kernel's /proc/meminfo has Dirty and Writeback")
    }

    @Test func aBatchSyncsOnlyItsOwnFiles() throws {
        try withTemporaryDirectory { folder in
            // A file of someone else's in the same directory stays dirty; the batch's are written back.
            // Another suite's batch may `syncfs` the same file system meanwhile and clean it too: that
            // cleans "older" (dirtied first; writeback goes oldest first) as well, and the attempt is
            // made again with new files. A batch that wrote back others' files would do so every time.
            for attempt in 1...3 {
                let own = ["a~\(attempt)", "b~\(attempt)", "c~\(attempt)"]
                let older = "older~\(attempt)", other = "other~\(attempt)"
                for name in [older] + own + [other] {
                    try writeUnsynced(folder + "/" + name, count: 64 * 1024)
                }
                guard PageCacheState.of(folder + "/" + older)?.isClean == false,
                      PageCacheState.of(folder + "/" + other)?.isClean == false else {
                    return  // no cachestat, or the kernel wrote them back already: nothing to tell apart
                }
                try FileSystemSync.syncEach(own, in: folder)
                for name in own {
                    #expect(PageCacheState.of(folder + "/" + name)?.isClean == true, "\(name) written back")
                }
                let otherState = PageCacheState.of(folder + "/" + other)
                if otherState?.isClean == false { return }
                if PageCacheState.of(folder + "/" + older)?.dirty != 0 { break }  // only the other file: the batch's doing
            }
            Issue.record("the other file was written back along with the batch")
        }
    }

    @Test func aMissingFileFailsTheBatch() throws {
        try withTemporaryDirectory { folder in
            try writeUnsynced(folder + "/present~1", count: 1)
            #expect(throws: MirrorError.self) { try FileSystemSync.syncEach(["present~1", "missing~2"], in: folder) }
        }
    }
}

/// Writes `count` bytes to a new file with plain write(2), leaving them to the kernel's writeback.
private func writeUnsynced(_ path: String, count: Int) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    let bytes = [UInt8](repeating: 7, count: count)
    guard write(descriptor, bytes, count) == count else { throw POSIXError(.EIO) }
}
