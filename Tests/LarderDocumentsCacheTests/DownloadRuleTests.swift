import Foundation
@testable import LarderDocumentsCache
import LarderStore
import Testing

/// SPEC §5 and §4.9 as `DownloadRule` decides them for one listed document: values in, a decision out.
@Suite("DownloadRule: which listed documents are fetched")
struct DownloadRuleTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let hash = String(repeating: "ab", count: 32)
    /// When the decisions are made: a day after every timestamp the tests give but the future ones.
    static let now = t0.addingTimeInterval(86_400)
    static let year9999 = Date(timeIntervalSince1970: 253_402_214_400)

    static func entry(size: Int? = 10, sha256: String? = hash, created: Date? = t0, updated: Date? = t0) -> DocumentEntryRecord {
        DocumentEntryRecord(
            name: "a.txt", position: 0, url: "http://127.0.0.1/a.txt", size: size, sha256: sha256,
            contentType: "text/plain", createdAt: created, updatedAt: updated)
    }

    static let file = DocumentFileRecord(
        name: "a.txt", fileName: "a-1.txt", size: 10, sha256: hash, contentType: "text/plain", createdAt: t0,
        updatedAt: t0, storedAt: t0, fetchedAt: t0, etag: "\"1\"", lastModified: nil)

    @Test(arguments: [true, false])
    func aDocumentNotMirroredYetIsFetchedWhole(indexChanged: Bool) {
        #expect(DownloadRule.decide(entry: Self.entry(), file: nil, indexChanged: indexChanged, now: Self.now) == .download(conditional: false))
    }

    @Test(arguments: [true, false])
    func anotherHashOrSizeMeansOtherBytes(indexChanged: Bool) {
        let otherHash = Self.entry(sha256: String(repeating: "cd", count: 32))
        let otherSize = Self.entry(size: 11)
        #expect(DownloadRule.decide(entry: otherHash, file: Self.file, indexChanged: indexChanged, now: Self.now) == .download(conditional: false))
        #expect(DownloadRule.decide(entry: otherSize, file: Self.file, indexChanged: indexChanged, now: Self.now) == .download(conditional: false))
    }

    @Test func aChangedIndexDecidesByTheTimestampRule() {
        let decide = { DownloadRule.decide(entry: $0, file: Self.file, indexChanged: true, now: Self.now) }
        #expect(decide(Self.entry()) == .skip, "same bytes, same timestamps")
        #expect(decide(Self.entry(updated: Self.t0 + 60)) == .download(conditional: true))
        #expect(decide(Self.entry(updated: nil)) == .download(conditional: true), "a missing timestamp is stale")
        #expect(decide(Self.entry(size: nil, sha256: nil)) == .skip, "nothing listed to compare but timestamps")
        #expect(decide(Self.entry(updated: Self.t0 - 60)) == .regression)
        #expect(decide(Self.entry(created: Self.t0 - 1)) == .regression)
    }

    @Test func anUnchangedIndexOnlyRetriesAnEntryNewerThanTheMirroredCopy() {
        let decide = { DownloadRule.decide(entry: $0, file: Self.file, indexChanged: false, now: Self.now) }
        #expect(decide(Self.entry()) == .skip)
        #expect(decide(Self.entry(updated: nil)) == .skip, "a 304 says nothing new")
        #expect(decide(Self.entry(created: nil, updated: nil)) == .skip)
        #expect(decide(Self.entry(updated: Self.t0 - 60)) == .skip, "older is no reason to fetch, nor a regression")
        #expect(decide(Self.entry(updated: Self.t0 + 60)) == .download(conditional: true))
        #expect(decide(Self.entry(created: Self.t0 + 1, updated: nil)) == .download(conditional: true))
    }

    @Test func timestampsAfterNowDecideNothing() {
        let poisoned = DocumentFileRecord(
            name: "a.txt", fileName: "a-1.txt", size: 10, sha256: Self.hash, contentType: "text/plain", createdAt: Self.t0,
            updatedAt: Self.year9999, storedAt: Self.t0, fetchedAt: Self.t0, etag: "\"1\"", lastModified: nil)
        // The mirrored copy once said 9999: the corrected entry is no regression; it is fetched (unknown is stale).
        #expect(DownloadRule.decide(entry: Self.entry(), file: poisoned, indexChanged: true, now: Self.now)
                == .download(conditional: true))
        // An entry dated after now is no newer than the copy by that date, and no regression either.
        #expect(DownloadRule.decide(entry: Self.entry(updated: Self.year9999), file: Self.file, indexChanged: false, now: Self.now)
                == .skip)
        #expect(DownloadRule.decide(entry: Self.entry(created: Self.year9999), file: Self.file, indexChanged: true, now: Self.now)
                == .download(conditional: true))
    }

    @Test func afterAnUpstreamChangeOnlyAnEqualHashKeepsTheFile() {
        let decide = { DownloadRule.decideAfterUpstreamChange(entry: $0, file: $1) }
        #expect(decide(Self.entry(), Self.file) == .skip)
        #expect(decide(Self.entry(updated: Self.t0 + 60), Self.file) == .skip, "timestamps of another upstream say nothing")
        #expect(decide(Self.entry(), nil) == .download(conditional: false))
        #expect(decide(Self.entry(sha256: nil), Self.file) == .download(conditional: false), "no hash vouches for the bytes")
        #expect(decide(Self.entry(sha256: String(repeating: "cd", count: 32)), Self.file) == .download(conditional: false))
        #expect(decide(Self.entry(size: 11), Self.file) == .download(conditional: false))
    }
}
