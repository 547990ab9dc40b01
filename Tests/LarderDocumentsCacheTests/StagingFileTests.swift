import Foundation
import Glibc
@testable import LarderDocumentsCache
import LarderTesting
import Testing

/// A download's file, unnamed (`O_TMPFILE`, linked once verified) or a named temporary file: either
/// way its bytes end under their name, and a discarded one leaves nothing in the directory.
@Suite("Staging files: unnamed where the file system allows, named otherwise")
struct StagingFileTests {
    private static func write(_ text: String, to staging: StagingFile) {
        let bytes = Array(text.utf8)
        #expect(Glibc.write(staging.descriptor, bytes, bytes.count) == bytes.count)
    }

    private static func names(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func thisMachinesTemporaryDirectoryTakesUnnamedFiles() throws {
        // Else the tests of the whole mirror would exercise only the named way.
        try withTemporaryDirectory { path in
            #expect(MirrorDirectory.takesUnnamedFiles(path))
            let left = try Self.names(path)
            #expect(left.isEmpty, "the probe's link is removed: \(left)")
        }
    }

    @Test(arguments: [true, false])
    func verifiedBytesEndUnderTheirNameAndDiscardedOnesLeaveNothing(unnamed: Bool) throws {
        try withTemporaryDirectory { path in
            let mirror = try MirrorDirectory(path: path, unnamedFiles: unnamed)
            let kept = try mirror.createStaging(for: "a.txt")
            #expect((kept.temporaryName == nil) == unnamed)
            Self.write("alpha", to: kept)
            let bytes = try mirror.stage(kept, as: "a.txt~1111")
            close(kept.descriptor)
            if case .temporary(let name) = bytes {
                #expect(!unnamed)
                try mirror.place(temporary: name, as: "a.txt~1111")
            } else {
                #expect(unnamed && bytes == .linked)
            }
            let dropped = try mirror.createStaging(for: "b.txt")
            Self.write("beta", to: dropped)
            mirror.discard(dropped)
            let names = try Self.names(path)
            let text = try String(contentsOfFile: path + "/a.txt~1111", encoding: .utf8)
            #expect(names == ["a.txt~1111"] && text == "alpha", "\(names): \(text)")
        }
    }

    @Test func anUnnamedFileWhoseNameIsTakenReplacesItAtTheCommit() throws {
        try withTemporaryDirectory { path in
            // A file left under the name by a crash, not swept yet: the verified bytes must win.
            try "damaged".write(toFile: path + "/a.txt~2222", atomically: false, encoding: .utf8)
            let mirror = try MirrorDirectory(path: path, unnamedFiles: true)
            let staging = try mirror.createStaging(for: "a.txt")
            Self.write("whole", to: staging)
            let bytes = try mirror.stage(staging, as: "a.txt~2222")
            close(staging.descriptor)
            guard case .temporary(let name) = bytes else {
                Issue.record("an existing name must not be linked over: \(bytes)")
                return
            }
            try mirror.place(temporary: name, as: "a.txt~2222")
            let names = try Self.names(path)
            let text = try String(contentsOfFile: path + "/a.txt~2222", encoding: .utf8)
            #expect(names == ["a.txt~2222"] && text == "whole", "\(names): \(text)")
        }
    }
}
