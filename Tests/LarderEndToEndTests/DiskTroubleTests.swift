import Foundation
import LarderStore
import LarderTesting
import Testing

@Suite("Disk trouble at start: a clear error and exit 73, never a crash or silent data loss")
struct DiskTroubleTests {
    private func serve(cache: String) throws -> (status: Int32?, stdout: String, stderr: String) {
        try ChildProcess.run("larder", [
            "serve", "--port", "0", "--cache-dir", cache, "--rates-url", "http://127.0.0.1:9/rates.xml",
        ])
    }

    @Test func aCacheDirectoryThatCannotBeCreatedIsAClearError() async throws {
        let file = NSTemporaryDirectory() + "larder-not-a-dir-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await onThread { try serve(cache: file + "/cache") }
        #expect(result.status == 73)
        #expect(result.stderr.contains("cannot create the cache directory") && result.stderr.contains("Not a directory"))
        #expect(!result.stdout.contains("listening"))
    }

    @Test func aFileThatIsNotADatabaseIsReportedAndKept() async throws {
        try await withTemporaryDirectory("larder-garbage") { cache in
            let garbage = Data("SQLite format 3\u{0}this is not a database".utf8)
            try garbage.write(to: URL(fileURLWithPath: cache + "/larder.sqlite"))
            let result = try await onThread { try serve(cache: cache) }
            #expect(result.status == 73)
            #expect(result.stderr.contains("file is not a database"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: cache + "/larder.sqlite")) == garbage, "never deleted")
        }
    }

    @Test func aDamagedDatabaseIsReportedNotRepairedByDeletion() async throws {
        try await withTemporaryDirectory("larder-damaged") { cache in
            // A real store with a few hundred rows (several pages), closed so everything is in the main file.
            do {
                let store = try Store(directory: cache, logger: quietLogger)
                let days = (1...28).map { day in
                    RateSetRecord(
                        date: String(format: "2026-10-%02d", day), base: "EUR", createdAt: nil, updatedAt: nil,
                        storedAt: Date(), rates: (0..<30).map { .init(code: "C\($0)", name: nil, value: "1.\($0)") })
                }
                try await store.commitRates(days, item: ItemRecord(resource: .rates, key: "feed", fetchedAt: Date()))
            }
            let path = cache + "/larder.sqlite"
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            let size = try handle.seekToEnd()
            #expect(size >= 8192)
            try handle.seek(toOffset: 4096)
            try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 4096))
            try handle.close()
            let result = try await onThread { try serve(cache: cache) }
            #expect(result.status == 73)
            #expect(result.stderr.contains("damaged") || result.stderr.contains("malformed"), "\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }
}
