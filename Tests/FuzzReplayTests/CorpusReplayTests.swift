import Foundation
import LarderFuzzing
import Testing

/// `make test`'s share of fuzzing: every committed corpus file and every saved reproducer goes through
/// every fuzz target, with the same property checks `make fuzz` runs, so a fixed bug stays fixed.
@Suite("Fuzz corpus and reproducers")
struct CorpusReplayTests {
    static let fuzz = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appending(path: "Fuzz")
    /// The shared real-upstream fixtures, not part of the repository and maybe absent.
    static let fixtures = fuzz.appending(path: "../../shared/fixtures/rates").standardized

    /// Every input file: corpus, reproducers and, when present, the shared fixtures.
    static let inputs: [URL] = {
        let folders = ["corpus", "reproducers"].flatMap { kind in
            FuzzTarget.all.map { fuzz.appending(path: "\(kind)/\($0.name)") }
        } + [fixtures]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { !$0.lastPathComponent.hasPrefix(".") }
        }.sorted { $0.path < $1.path }
    }()

    @Test("every target has a committed seed corpus", arguments: FuzzTarget.all.map(\.name))
    func targetHasSeeds(_ name: String) throws {
        let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.fuzz.appending(path: "corpus/\(name)").path)
        #expect(seeds.filter { !$0.hasPrefix(".") }.count >= 3)
    }

    @Test("every input keeps every target's properties", arguments: FuzzTarget.all.map(\.name))
    func replay(_ name: String) async throws {
        let target = try #require(FuzzTarget.named(name))
        #expect(Self.inputs.count >= 100)
        let failures = try await Self.onOwnThread {
            try Self.inputs.compactMap { file throws -> String? in
                let input = Array(try Data(contentsOf: file))
                do throws(PropertyViolation) {
                    try target.check(input)
                    return nil
                } catch {
                    return "\(file.path): \(error.message)"
                }
            }
        }
        for failure in failures {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// Runs `body` on a thread of its own, as libFuzzer runs a target on its: the whole-pipeline
    /// targets block their thread while Swift concurrency runs the pipeline, which must not wait
    /// for the pool thread this test runs on.
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    @Test("the target list names each target once, as its corpus folder does")
    func targetNamesAreUniqueFolders() {
        let names = FuzzTarget.all.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(FileManager.default.fileExists(atPath: Self.fuzz.appending(path: "reproducers/\(name)").path))
        }
    }
}
